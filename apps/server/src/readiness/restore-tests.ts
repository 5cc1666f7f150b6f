import { randomBytes } from "node:crypto";
import { RESTORE_DEADLINE_HOURS, RESTORE_TEST_MAX_AGE_MONTHS } from "@hcs/protocol";
import { addYears, dateOf } from "../administrative/calendar-date.js";
import { ServiceError } from "../errors.js";
import { iso, type ServiceDeps } from "../services/deps.js";
import type { RestoreTestsTable } from "../store/schema.js";
import { reevaluateRestoreFindings } from "./host-restore.js";
import type { RecordRestoreTestInput, RestoreTestView } from "./restore-tests-schema.js";

/** A stored restore test as the API shows it, judged as of `today`. */
export function restoreTestView(row: RestoreTestsTable, today: string): RestoreTestView {
  return {
    id: row.id,
    npi: row.npi,
    tested_on: row.tested_on,
    system: row.system,
    data_restored: row.data_restored,
    time_to_restore_minutes: row.time_to_restore_minutes,
    outcome: row.outcome as RestoreTestView["outcome"],
    recorded_at: row.recorded_at,
    current: row.tested_on >= addYears(today, -RESTORE_TEST_MAX_AGE_MONTHS / 12),
    within_72_hours: row.time_to_restore_minutes < RESTORE_DEADLINE_HOURS * 60,
  };
}

/**
 * Records a restore test of one of the practice's systems and, in the same transaction, derives the restore findings
 * of its scanner hosts again (a test naming a host resolves or raises that host's finding) and regrades.
 */
export async function recordRestoreTest(
  deps: ServiceDeps,
  npi: string,
  input: Omit<RecordRestoreTestInput, "npi">,
): Promise<RestoreTestView> {
  const now = deps.now();
  const today = dateOf(now);
  if (input.tested_on > today)
    throw new ServiceError("invalid_body", "tested_on: a restore test cannot be dated after today", {
      issues: [{ path: "tested_on", message: "after today" }],
    });
  const row: RestoreTestsTable = {
    id: `rst_${randomBytes(8).toString("hex")}`,
    npi,
    tested_on: input.tested_on,
    system: input.system,
    system_key: input.system.toLowerCase(),
    data_restored: input.data_restored,
    time_to_restore_minutes: input.time_to_restore_minutes,
    outcome: input.outcome,
    recorded_at: iso(now),
  };
  await deps.store.db.transaction().execute(async (trx) => {
    await trx.insertInto("restore_tests").values(row).execute();
    await reevaluateRestoreFindings(trx, npi, now);
  });
  return restoreTestView(row, today);
}

/** The practice's restore tests, most recent first. */
export async function listRestoreTests(deps: ServiceDeps, npi: string): Promise<RestoreTestView[]> {
  const rows = await deps.store.db
    .selectFrom("restore_tests")
    .selectAll()
    .where("npi", "=", npi)
    .orderBy("tested_on", "desc")
    .orderBy("recorded_at", "desc")
    .execute();
  const today = dateOf(deps.now());
  return rows.map((r) => restoreTestView(r, today));
}

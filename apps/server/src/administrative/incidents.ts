import { randomBytes } from "node:crypto";
import { ServiceError } from "../errors.js";
import type { ServiceDeps } from "../services/deps.js";
import { iso } from "../services/deps.js";
import type { IncidentsTable } from "../store/schema.js";
import { notificationClock } from "./breach-clock.js";
import { determineBreach } from "./breach-determination.js";
import { dateOf } from "./calendar-date.js";
import {
  CheckedIncidentRecordSchema,
  type IncidentRecord,
  IncidentRecordSchema,
  type IncidentView,
} from "./incident-schema.js";

/** An incident as the API shows it on `today`: the record, the determination and the notification clock. */
export function incidentView(row: IncidentsTable, today: string): IncidentView {
  const record = IncidentRecordSchema.parse(JSON.parse(row.record));
  const determination = determineBreach(record);
  const notifications =
    determination.determination === "breach"
      ? notificationClock(
          {
            discovered_on: record.discovered_on,
            individuals_affected: record.individuals_affected,
            residents_by_state: record.residents_by_state,
            law_enforcement_delay_days: record.law_enforcement_delay_days,
            sent: record.notifications_sent,
          },
          today,
        )
      : [];
  return {
    id: row.id,
    npi: row.npi,
    ...record,
    determination,
    notifications: notifications.map((n) => ({ ...n, controls: [...n.controls] })),
    overdue: notifications.some((n) => n.status === "overdue"),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function refuseFutureDiscovery(record: IncidentRecord, today: string) {
  if (record.discovered_on > today)
    throw new ServiceError("invalid_body", "discovered_on: a discovery date in the future", { field: "discovered_on" });
}

/** Records a new incident of a practice. */
export async function createIncident(deps: ServiceDeps, npi: string, record: IncidentRecord): Promise<IncidentView> {
  const now = deps.now();
  refuseFutureDiscovery(record, dateOf(now));
  const row: IncidentsTable = {
    id: `inc_${randomBytes(8).toString("hex")}`,
    npi,
    status: record.status,
    discovered_on: record.discovered_on,
    record: JSON.stringify(record),
    created_at: iso(now),
    updated_at: iso(now),
  };
  await deps.store.db.insertInto("incidents").values(row).execute();
  return incidentView(row, dateOf(now));
}

/** An incident of one of the account's practices; any other id is not_found (its existence does not leak). */
export async function getIncidentRow(deps: ServiceDeps, id: string, accountId: string): Promise<IncidentsTable> {
  const row = await deps.store.db
    .selectFrom("incidents as i")
    .innerJoin("practices as p", "p.npi", "i.npi")
    .selectAll("i")
    .where("i.id", "=", id)
    .where("p.account_id", "=", accountId)
    .executeTakeFirst();
  if (!row) throw new ServiceError("not_found", "no such incident of your account");
  return row;
}

/** Moves an incident on: the changed fields replace the old, and the whole record is checked again. */
export async function patchIncident(
  deps: ServiceDeps,
  row: IncidentsTable,
  changes: Partial<IncidentRecord>,
): Promise<IncidentView> {
  const now = deps.now();
  const merged = CheckedIncidentRecordSchema.safeParse({ ...JSON.parse(row.record), ...changes });
  if (!merged.success) {
    const issue = merged.error.issues[0]!;
    throw new ServiceError("invalid_body", `${issue.path.join(".")}: ${issue.message}`, {
      issues: merged.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  refuseFutureDiscovery(merged.data, dateOf(now));
  const updated: IncidentsTable = {
    ...row,
    status: merged.data.status,
    discovered_on: merged.data.discovered_on,
    record: JSON.stringify(merged.data),
    updated_at: iso(now),
  };
  await deps.store.db
    .updateTable("incidents")
    .set({
      status: updated.status,
      discovered_on: updated.discovered_on,
      record: updated.record,
      updated_at: updated.updated_at,
    })
    .where("id", "=", row.id)
    .execute();
  return incidentView(updated, dateOf(now));
}

/** The practice's incidents, most recently discovered first. */
export async function listIncidents(deps: ServiceDeps, npi: string, status?: string): Promise<IncidentView[]> {
  let q = deps.store.db.selectFrom("incidents").selectAll().where("npi", "=", npi);
  if (status) q = q.where("status", "=", status);
  const rows = await q.orderBy("discovered_on", "desc").orderBy("created_at", "desc").execute();
  const today = dateOf(deps.now());
  return rows.map((r) => incidentView(r, today));
}

import type { FindingParsed, ScanResultDocument } from "@hcs/protocol";
import type { Transaction } from "kysely";
import { dateOf } from "../administrative/calendar-date.js";
import { iso } from "../services/deps.js";
import { writeSubjectFindings } from "../services/finding-writes.js";
import { regradeIn } from "../services/grades.js";
import { type ResultEvidence, resultEvidence, storedResultEvidence } from "../services/result-evidence.js";
import type { Executor } from "../store/hot-sql.js";
import type { Database } from "../store/schema.js";
import { noPause } from "../util/time-slicer.js";
import { latestTest, RESTORE_CHECKS, type RestoreTest, restoreFinding, systemKey } from "./restore-rules.js";

/** Whether a host's results show it holds ePHI: ePHI software, suspected ePHI files, or the backups phase saying so. */
export function holdsEphi(evidence: Iterable<ResultEvidence | null>): boolean {
  for (const e of evidence) {
    if (!e) continue;
    if ((e.ephi_roles?.length ?? 0) > 0 || (e.files_flagged ?? 0) > 0 || e.readiness?.ephi_bearing) return true;
  }
  return false;
}

/** The practice's restore-test records as the rules read them, by system key. */
export async function restoreTestsBySystem(db: Executor, npi: string): Promise<Map<string, RestoreTest[]>> {
  const rows = await db
    .selectFrom("restore_tests")
    .select(["id", "tested_on", "system_key", "time_to_restore_minutes", "outcome"])
    .where("npi", "=", npi)
    .execute();
  const out = new Map<string, RestoreTest[]>();
  for (const r of rows) {
    const key = systemKey(r.system_key);
    const list = out.get(key) ?? [];
    list.push({
      source: "record",
      ref: r.id,
      tested_on: r.tested_on,
      minutes: r.time_to_restore_minutes,
      succeeded: r.outcome === "succeeded",
    });
    out.set(key, list);
  }
  return out;
}

/** The restore a host's backup tool recorded (its backups result's readiness), as a test. */
export function scannerRestore(evidence: ResultEvidence | null): RestoreTest[] {
  const r = evidence?.readiness?.restore;
  if (!r) return [];
  return [
    {
      source: "scanner",
      ref: r.tool,
      tested_on: r.at.slice(0, 10),
      minutes: r.duration_minutes,
      succeeded: r.succeeded,
    },
  ];
}

/** A host's restore finding, from its backups evidence, its ePHI status and the practice's records (null: none due). */
function hostRestoreFinding(
  host: string,
  ephi: boolean,
  backups: ResultEvidence | null,
  records: ReadonlyMap<string, readonly RestoreTest[]>,
  today: string,
): FindingParsed | null {
  if (!ephi) return null;
  const tests = [...(records.get(systemKey(host)) ?? []), ...scannerRestore(backups)];
  return restoreFinding(host, latestTest(tests, today));
}

/**
 * A scanner upload with the server's restore finding in its backups phase (docs/scoring.md §9): when the phase
 * completed on a host that holds ePHI, the host's latest restore test within 12 months — from the practice's
 * records or the tool's own — decides it. A restore finding the upload itself carries is dropped: only the server
 * makes those.
 */
export async function withRestoreFindings(
  trx: Transaction<Database>,
  doc: ScanResultDocument,
  npi: string,
  host: string,
  now: Date,
): Promise<ScanResultDocument> {
  const backups = doc.phases.find((p) => p.id === "backups" && p.status === "ok");
  if (!backups) return doc;
  const stored = await trx
    .selectFrom("internal_results")
    .select("evidence")
    .where("npi", "=", npi)
    .where("subject", "=", host)
    .execute();
  const uploaded = doc.phases.filter((p) => p.status === "ok").map((p) => resultEvidence(p.id, p.facts));
  const ephi = holdsEphi([...uploaded, ...stored.map((s) => storedResultEvidence(s.evidence))]);
  const finding = hostRestoreFinding(
    host,
    ephi,
    resultEvidence("backups", backups.facts),
    await restoreTestsBySystem(trx, npi),
    dateOf(now),
  );
  return {
    ...doc,
    phases: doc.phases.map((p) =>
      p !== backups
        ? p
        : {
            ...p,
            findings: [
              ...p.findings.filter((f) => !RESTORE_CHECKS.has(f.check_id)),
              ...(finding ? [finding as (typeof p.findings)[number]] : []),
            ],
          },
    ),
  };
}

/**
 * After a restore-test record is written, in its transaction: every scanner host of the practice with a backups
 * result gets its restore finding derived again (its other findings stay as they are), and the practice is regraded
 * when any host's changed. Returns how many hosts were re-evaluated.
 */
export async function reevaluateRestoreFindings(trx: Transaction<Database>, npi: string, now: Date): Promise<number> {
  const results = await trx
    .selectFrom("internal_results")
    .select(["subject", "phase", "evidence"])
    .where("npi", "=", npi)
    .execute();
  const hosts = new Map<string, Map<string, ResultEvidence | null>>();
  for (const r of results) {
    const phases = hosts.get(r.subject) ?? new Map<string, ResultEvidence | null>();
    phases.set(r.phase, storedResultEvidence(r.evidence));
    hosts.set(r.subject, phases);
  }
  const records = await restoreTestsBySystem(trx, npi);
  const at = iso(now);
  let changed = 0;
  for (const [host, phases] of hosts) {
    if (!phases.has("backups")) continue;
    const finding = hostRestoreFinding(
      host,
      holdsEphi(phases.values()),
      phases.get("backups") ?? null,
      records,
      dateOf(now),
    );
    const open = await trx
      .selectFrom("findings")
      .select(["finding_id", "severity", "title"])
      .where("npi", "=", npi)
      .where("source", "=", "internal")
      .where("subject", "=", host)
      .where("resolved_at", "is", null)
      .where("check_id", "in", [...RESTORE_CHECKS])
      .execute();
    const before = open.map((o) => `${o.finding_id}|${o.severity}|${o.title}`).join("\n");
    const after = finding ? `${finding.id}|${finding.severity}|${finding.title}` : "";
    if (before === after) continue;
    await writeSubjectFindings(
      trx,
      {
        npi,
        source: "internal",
        subject: host,
        findings: finding ? [{ ...finding, phase: "backups" }] : [],
        at,
        examined: (f) => RESTORE_CHECKS.has(f.check_id),
      },
      noPause,
    );
    changed++;
  }
  if (changed > 0) await regradeIn(trx, npi, at);
  return changed;
}

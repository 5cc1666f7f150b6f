import type { FindingParsed, GradeRecord, PhaseId, ScanResultDocument } from "@hcs/protocol";
import { PHASES } from "@hcs/protocol";
import type { Transaction } from "kysely";
import { ServiceError } from "../errors.js";
import type { Database } from "../store/schema.js";
import type { Pace } from "../util/time-slicer.js";
import { iso } from "./deps.js";
import { type PhasedFinding, writeSubjectFindings } from "./finding-writes.js";
import { computeAndStoreGrade, currentGradeIn } from "./grades.js";
import { scopeCovers } from "./internal-coverage.js";
import { resultEvidence } from "./result-evidence.js";

export interface InternalScan {
  readonly npi: string;
  readonly doc: ScanResultDocument;
  /** The scanning machine's host name, lower-cased: the internal subject. */
  readonly subject: string;
  /** When the scan completed (never after it arrived). */
  readonly scannedAt: Date;
  /** Now: the grade is computed at this time (results expire by it). */
  readonly now: Date;
}

/**
 * Merges one scan into a practice's internal results (docs/scanner.md#the-grade-partial-scans-and-result-age) and
 * recomputes the grade:
 * - each phase that completed replaces that host's result of that phase, unless a newer result is stored (a late
 *   spooled scan); phases that did not complete, and older ones, change nothing;
 * - the findings of the replaced phases are written; an open finding they did not report is resolved only when the
 *   phase examined it (a network phase examines its scope; a phase whose findings were cut to fit the upload limits
 *   resolves nothing);
 * - the host's other phases keep their results and findings.
 * Returns the new grade, or the current one when nothing changed (null before any).
 */
export async function recordInternalScanIn(
  trx: Transaction<Database>,
  scan: InternalScan,
  pace: Pace,
): Promise<GradeRecord | null> {
  const { npi, doc, subject } = scan;
  const practice = await trx.selectFrom("practices").select("name").where("npi", "=", npi).executeTakeFirst();
  if (!practice) throw new ServiceError("npi_not_found", `no practice with NPI ${npi} is known to this service`);
  const at = iso(scan.scannedAt);
  const stored = await trx
    .selectFrom("internal_results")
    .select(["phase", "assessed_at"])
    .where("npi", "=", npi)
    .where("subject", "=", subject)
    .execute();
  const storedAt = new Map(stored.map((r) => [r.phase, r.assessed_at]));
  const replaced = doc.phases.filter((p) => p.status === "ok" && !((storedAt.get(p.id) ?? "") > at));
  if (replaced.length === 0) return currentGradeIn(trx, npi);

  const scope = JSON.stringify(doc.scope);
  for (const p of replaced) {
    const found = resultEvidence(p.id, p.facts);
    const evidence = found ? JSON.stringify(found) : null;
    await trx
      .insertInto("internal_results")
      .values({ npi, subject, phase: p.id, assessed_at: at, scan_id: doc.scan_id, scope, evidence })
      .onConflict((oc) =>
        oc.columns(["npi", "subject", "phase"]).doUpdateSet({ assessed_at: at, scan_id: doc.scan_id, scope, evidence }),
      )
      .execute();
  }
  // The host's internal assessment: the latest scan that replaced anything (compliance evidence cites it).
  await trx
    .insertInto("assessments")
    .values({
      npi,
      source: "internal",
      subject,
      categories: JSON.stringify([...new Set(replaced.flatMap((p) => phaseCategories(p.id)))]),
      assessed_at: at,
      reference: `scan:${doc.scan_id}`,
    })
    .onConflict((oc) =>
      oc.columns(["npi", "source", "subject"]).doUpdateSet({
        categories: JSON.stringify([...new Set(replaced.flatMap((p) => phaseCategories(p.id)))]),
        assessed_at: at,
        reference: `scan:${doc.scan_id}`,
      }),
    )
    .execute();

  const findings: PhasedFinding[] = replaced.flatMap((p) =>
    p.findings.map(
      (f): PhasedFinding => ({ ...(f as FindingParsed), source: "internal", host: f.host ?? subject, phase: p.id }),
    ),
  );
  const replacedIds = new Set<string>(replaced.map((p) => p.id));
  const truncated = new Set(findings.filter((f) => f.check_id === `${f.phase}.findings_left_out`).map((f) => f.phase));
  const covers = scopeCovers(doc.scope, subject);
  await writeSubjectFindings(
    trx,
    {
      npi,
      source: "internal",
      subject,
      findings,
      at,
      // Findings stored before phases were recorded (no phase) go with any scan, as they always did.
      examined: ({ phase, host }) =>
        phase === null || (replacedIds.has(phase) && !truncated.has(phase) && covers(phase as PhaseId, host)),
    },
    pace,
  );
  return computeAndStoreGrade(trx, npi, practice.name, at, scan.now);
}

function phaseCategories(id: PhaseId) {
  return PHASES.find((p) => p.id === id)?.categories ?? [];
}

import type { ServiceDeps } from "../services/deps.js";
import { recordAssessment } from "../services/grades.js";
import { administrativeFindings, hasAdministrativeRecords } from "./evaluation.js";
import { readAdministrativeSnapshot } from "./snapshot.js";

/** The subject of the administrative assessment: the practice's records kept in HCS. */
export const ADMINISTRATIVE_SUBJECT = "records";

/**
 * Re-evaluates the practice's administrative records and, when it keeps any, records them as the administrative
 * assessment (findings replace the previous ones; the grade is recomputed). Called after every administrative
 * write, and by reads that show the grade, since a record also goes out of date with time (an SRA turning 12 months
 * old). Writes only when the open findings changed. Returns whether it wrote.
 */
export async function refreshAdministrativeAssessment(deps: ServiceDeps, npi: string): Promise<boolean> {
  const snapshot = await readAdministrativeSnapshot(deps, npi);
  if (!hasAdministrativeRecords(snapshot)) return false;
  const findings = administrativeFindings(snapshot);
  const [assessed, open] = await Promise.all([
    deps.store.db
      .selectFrom("assessments")
      .select("assessed_at")
      .where("npi", "=", npi)
      .where("source", "=", "administrative")
      .where("subject", "=", ADMINISTRATIVE_SUBJECT)
      .executeTakeFirst(),
    deps.store.db
      .selectFrom("findings")
      .select(["finding_id", "severity", "title"])
      .where("npi", "=", npi)
      .where("source", "=", "administrative")
      .where("resolved_at", "is", null)
      .execute(),
  ]);
  const key = (xs: readonly { id: string; severity: string; title: string }[]) =>
    xs
      .map((x) => `${x.id}|${x.severity}|${x.title}`)
      .sort()
      .join("\n");
  if (assessed && key(findings) === key(open.map((o) => ({ ...o, id: o.finding_id })))) return false;
  await recordAssessment(deps, {
    npi,
    source: "administrative",
    subject: ADMINISTRATIVE_SUBJECT,
    categories: ["administrative_safeguards"],
    findings,
    at: deps.now(),
    reference: null,
  });
  return true;
}

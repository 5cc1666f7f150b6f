import type { Executor } from "../store/hot-sql.js";
import { isEvidenceOperation } from "./evidence-operations.js";

/** What deciding whose an event is reads of it. */
export interface OwnedEventFields {
  readonly id: number | string | bigint;
  readonly actor_account_id: string | null;
  readonly action: string;
  readonly outcome: string;
  readonly resource: string | null;
}

const SCAN = "scan:";
const JOB = "job:";

/** Whether an event is evidence of a record (a successful upload or scan completion on `scan:<id>` or `job:<id>`). */
const isEvidenceEvent = (e: OwnedEventFields) =>
  e.outcome === "success" &&
  isEvidenceOperation(e.action) &&
  e.resource !== null &&
  (e.resource.startsWith(SCAN) || e.resource.startsWith(JOB));

/**
 * Which audit events are an account's — one rule for the proof endpoint (`auditProofFor`) and hipaa.evidence:
 * - the events it made (the account is the event's actor);
 * - the evidence events of its practices' records: a scanner upload (`scan:<id>`, made by the agent, which is no
 *   account) or a scan job's completion (`job:<id>`) whose scan or job is of a practice the account owns.
 * Returns the ids of the given events that are the account's; the others are not to be disclosed (answered as
 * unknown ones are).
 */
export async function eventsOfAccount(
  db: Executor,
  events: readonly OwnedEventFields[],
  accountId: string,
): Promise<Set<number>> {
  const mine = new Set<number>();
  const evidence: OwnedEventFields[] = [];
  for (const e of events) {
    if (e.actor_account_id === accountId) mine.add(Number(e.id));
    else if (isEvidenceEvent(e)) evidence.push(e);
  }
  if (evidence.length === 0) return mine;
  const ids = (prefix: string) => [
    ...new Set(evidence.flatMap((e) => (e.resource!.startsWith(prefix) ? [e.resource!.slice(prefix.length)] : []))),
  ];
  const scanIds = ids(SCAN);
  const jobIds = ids(JOB);
  const [scans, jobs] = await Promise.all([
    scanIds.length === 0
      ? []
      : db
          .selectFrom("scan_uploads as s")
          .innerJoin("practices as p", "p.npi", "s.npi")
          .select("s.scan_id as id")
          .where("s.scan_id", "in", scanIds)
          .where("p.account_id", "=", accountId)
          .execute(),
    jobIds.length === 0
      ? []
      : db
          .selectFrom("jobs as j")
          .innerJoin("practices as p", "p.npi", "j.npi")
          .select("j.id as id")
          .where("j.id", "in", jobIds)
          .where("p.account_id", "=", accountId)
          .execute(),
  ]);
  const owned = new Set([...scans.map((s) => `${SCAN}${s.id}`), ...jobs.map((j) => `${JOB}${j.id}`)]);
  for (const e of evidence) if (owned.has(e.resource!)) mine.add(Number(e.id));
  return mine;
}

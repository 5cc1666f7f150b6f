import type { EvidenceRecord, EvidenceReport, Npi } from "@hcs/protocol";
import type { Selectable } from "kysely";
import type { AppDeps } from "../app-deps.js";
import { assessRequirements, readPracticeEvidence } from "../services/compliance-state.js";
import { getOwnedPractice } from "../services/practices.js";
import type { AuditEventsTable } from "../store/schema.js";
import { eventsOfAccount } from "./event-owner.js";
import { loggingEventsQuery } from "./logging-events.js";
import { auditProofsFor } from "./proofs.js";

export interface EvidenceQuery {
  readonly npi: Npi;
  readonly requirement?: number;
  readonly since?: string;
}

/**
 * hipaa.evidence: the compliance state of a practice its caller owns, where each piece of evidence lists the
 * records behind it — the scanner uploads and external scans it read — each with the audit event that logged the
 * record and that event's inclusion proof to a signed checkpoint (the latest anchored one when there is one).
 */
export async function evidenceFor(deps: AppDeps, query: EvidenceQuery, accountId: string): Promise<EvidenceReport> {
  await getOwnedPractice(deps, query.npi, accountId);
  const practice = await readPracticeEvidence(deps, query.npi);
  const state = assessRequirements(query.npi, deps.now().toISOString(), practice);
  const requirements = state.requirements.filter(
    (r) => query.requirement === undefined || r.number === query.requirement,
  );
  const assessments = new Map(practice.assessments.flatMap((a) => (a.reference ? [[a.reference, a] as const] : [])));
  const wanted = new Set(
    requirements.flatMap((r) =>
      r.evidence.flatMap((e) =>
        e.sources.filter((ref) => {
          const a = assessments.get(ref);
          return a !== undefined && (query.since === undefined || a.assessed_at >= query.since);
        }),
      ),
    ),
  );
  const events = await accountLoggingEvents(deps, [...wanted], accountId);
  const proofs = await auditProofsFor(deps, [...events.values()]);

  const recordOf = (ref: string): EvidenceRecord => {
    const a = assessments.get(ref)!;
    const event = events.get(ref);
    const proof = event ? (proofs.get(Number(event.id)) ?? null) : null;
    return {
      kind: ref.startsWith("scan:") ? "scanner_upload" : "external_scan",
      ref,
      subject: a.subject,
      assessed_at: a.assessed_at,
      audit: {
        state: !event ? "not_logged" : proof ? "proved" : "pending",
        event_id: event ? Number(event.id) : null,
        proof,
      },
    };
  };
  return {
    npi: query.npi,
    as_of: state.as_of,
    requirements: requirements.map((r) => ({
      ...r,
      evidence: r.evidence.map(({ sources, ...item }) => ({
        ...item,
        records: sources.filter((ref) => wanted.has(ref)).map(recordOf),
      })),
    })),
  };
}

/** The first successful event that logged each record (by resource), if any (hipaa.evidence, the scan report). */
export async function loggingEvents(
  deps: Pick<AppDeps, "store">,
  refs: readonly string[],
): Promise<Map<string, Selectable<AuditEventsTable>>> {
  const out = new Map<string, Selectable<AuditEventsTable>>();
  if (refs.length === 0) return out;
  const rows = await loggingEventsQuery(deps.store, refs).execute();
  for (const row of rows) if (row.resource && !out.has(row.resource)) out.set(row.resource, row);
  return out;
}

/**
 * {@link loggingEvents} that are the account's by the rule the proof endpoint applies (audit/event-owner.ts), so
 * every event listed has a proof the account may fetch; a record whose event is not the account's reads as not
 * logged.
 */
export async function accountLoggingEvents(
  deps: Pick<AppDeps, "store">,
  refs: readonly string[],
  accountId: string,
): Promise<Map<string, Selectable<AuditEventsTable>>> {
  const events = await loggingEvents(deps, refs);
  const mine = await eventsOfAccount(deps.store.db, [...events.values()], accountId);
  return new Map([...events].filter(([, e]) => mine.has(Number(e.id))));
}

export { loggingEventsQuery };

import type { ServiceDeps } from "../services/deps.js";

/** One audit event of an account as its people see it listed: what happened, and its place in the log. */
export interface AccountAuditEvent {
  readonly id: number;
  readonly at: string;
  readonly action: string;
  readonly outcome: string;
  readonly transport: string;
  readonly resource: string | null;
  readonly operator: string | null;
  readonly code: string | null;
  /** Null until the sequencer has placed the event in the log (within a second of it). */
  readonly leaf_index: number | null;
}

export const ACCOUNT_EVENTS_MAX = 100;

const selectEvents = (deps: ServiceDeps, accountId: string) =>
  deps.store.db
    .selectFrom("audit_entries")
    .select(["id", "at", "action", "outcome", "transport", "resource", "actor_operator", "code", "leaf_index"])
    .where("actor_account_id", "=", accountId);

type EventRow = Awaited<ReturnType<ReturnType<typeof selectEvents>["execute"]>>[number];

const viewOf = (e: EventRow): AccountAuditEvent => ({
  id: Number(e.id),
  at: e.at,
  action: e.action,
  outcome: e.outcome,
  transport: e.transport,
  resource: e.resource,
  operator: e.actor_operator,
  code: e.code,
  leaf_index: e.leaf_index === null ? null : Number(e.leaf_index),
});

/**
 * The account's most recent audit events, newest first: the events whose actor is the account, each of which
 * `auditProofFor` proves to it (audit/event-owner.ts; it also proves the scanner uploads of the account's
 * practices, which hipaa.evidence lists). Walks the log backwards by id
 * (the primary key) and stops at `limit`; there is no index on the actor, which an account with few events in a
 * very large log would feel (see docs/portal.md).
 */
export async function recentAccountEvents(
  deps: ServiceDeps,
  accountId: string,
  limit = ACCOUNT_EVENTS_MAX,
): Promise<AccountAuditEvent[]> {
  const rows = await selectEvents(deps, accountId).orderBy("id", "desc").limit(limit).execute();
  return rows.map(viewOf);
}

/** One event of the account, or null for an unknown id or another account's event (not disclosed). */
export async function accountEvent(
  deps: ServiceDeps,
  accountId: string,
  eventId: number,
): Promise<AccountAuditEvent | null> {
  const row = await selectEvents(deps, accountId).where("id", "=", eventId).executeTakeFirst();
  return row ? viewOf(row) : null;
}

import { hash } from "node:crypto";
import type { Transaction } from "kysely";
import { type HotSql, insertRows } from "../store/hot-sql.js";
import type { Database } from "../store/schema.js";

export type AuditOutcome = "success" | "denied" | "failure";

/** One audited call. Never holds a secret or a body: keys appear only by id. */
export interface AuditEvent {
  readonly at: string;
  readonly request_id: string;
  readonly actor_key_id: string | null;
  readonly actor_account_id: string | null;
  /** The operation (`hipaa.grade`, `createDeployToken`), or `METHOD /route` for a request no operation served. */
  readonly action: string;
  /** The protocol the call came by: rest, jsonrpc, mcp or a2a. */
  readonly transport: string;
  /** What was acted on, e.g. `practice:1234567893`. */
  readonly resource: string | null;
  readonly outcome: AuditOutcome;
  readonly status: number;
  readonly client_ip: string;
  readonly duration_ms: number;
}

/**
 * The event's canonical JSON (keys sorted, no whitespace — `canonicalJson` of the event). Every call is hashed, so
 * this is the fixed-shape form: one object literal with the keys already in sorted order, given to JSON.stringify,
 * yields the same text at a third of the generic serializer's cost (a test holds the two equal). Non-finite
 * durations or statuses cannot reach it: they are numbers the pipeline computed.
 */
export function auditEventJson(e: AuditEvent): string {
  return JSON.stringify({
    action: e.action,
    actor_account_id: e.actor_account_id,
    actor_key_id: e.actor_key_id,
    at: e.at,
    client_ip: e.client_ip,
    duration_ms: e.duration_ms,
    outcome: e.outcome,
    request_id: e.request_id,
    resource: e.resource,
    status: e.status,
    transport: e.transport,
  });
}

/** RFC 9162 leaf hash of an event: SHA-256 over 0x00 followed by the event's canonical JSON. */
export function auditLeafHash(event: AuditEvent): string {
  return hash("sha256", `\0${auditEventJson(event)}`, "hex");
}

/** Outcome class of an HTTP status, for audit queries. */
export function outcomeOf(status: number): AuditOutcome {
  if (status < 400) return "success";
  if (status === 401 || status === 402 || status === 403 || status === 429) return "denied";
  return "failure";
}

const AUDIT_COLUMNS = [
  "at",
  "request_id",
  "actor_key_id",
  "actor_account_id",
  "action",
  "transport",
  "resource",
  "outcome",
  "status",
  "client_ip",
  "duration_ms",
  "leaf_hash",
] as const;

/** Appends an audit event inside the caller's transaction. */
export function appendAuditEvent(hot: HotSql, trx: Transaction<Database>, event: AuditEvent): Promise<void> {
  return appendAuditEvents(hot, trx, [event]);
}

/** Appends audit events, in order, inside the caller's transaction (a group commit writes its events together). */
export async function appendAuditEvents(
  hot: HotSql,
  trx: Transaction<Database>,
  events: readonly AuditEvent[],
): Promise<void> {
  if (events.length === 0) return;
  // Hot path (every audited call).
  await insertRows(
    hot,
    trx,
    "audit_events",
    AUDIT_COLUMNS,
    events.map((event) => {
      // duration is rounded so that the stored row and the hashed event are the same value.
      const e = { ...event, duration_ms: Math.round(event.duration_ms * 1000) / 1000 };
      return [
        e.at,
        e.request_id,
        e.actor_key_id,
        e.actor_account_id,
        e.action,
        e.transport,
        e.resource,
        e.outcome,
        e.status,
        e.client_ip,
        e.duration_ms,
        auditLeafHash(e),
      ];
    }),
  );
}

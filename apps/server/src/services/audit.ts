import { createHash } from "node:crypto";
import { canonicalJson } from "@hcs/protocol";
import type { Transaction } from "kysely";
import type { HotSql } from "../store/hot-sql.js";
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

/** RFC 9162 leaf hash of an event: SHA-256 over 0x00 followed by the event's canonical JSON. */
export function auditLeafHash(event: AuditEvent): string {
  return createHash("sha256")
    .update(Buffer.from([0]))
    .update(canonicalJson(event))
    .digest("hex");
}

/** Outcome class of an HTTP status, for audit queries. */
export function outcomeOf(status: number): AuditOutcome {
  if (status < 400) return "success";
  if (status === 401 || status === 402 || status === 403 || status === 429) return "denied";
  return "failure";
}

/** Appends an audit event inside the caller's transaction (usually a group-commit batch). */
export async function appendAuditEvent(hot: HotSql, trx: Transaction<Database>, event: AuditEvent): Promise<void> {
  // duration is rounded so that the stored row and the hashed event are the same value.
  const e = { ...event, duration_ms: Math.round(event.duration_ms * 1000) / 1000 };
  // Hot path (every request).
  await hot.all(
    trx,
    "insert into audit_events (at, request_id, actor_key_id, actor_account_id, action, transport, resource, outcome, status, client_ip, duration_ms, leaf_hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [
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
    ],
  );
}

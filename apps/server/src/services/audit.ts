import { hash, randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { isEvidenceOperation } from "../audit/evidence-operations.js";
import { engineCapabilities } from "../store/engine-capabilities.js";
import { type HotExecutor, type HotSql, insertRows, insertRowsForIds } from "../store/hot-sql.js";
import type { Database } from "../store/schema.js";

export type AuditOutcome = "success" | "denied" | "failure";

/**
 * How an audited write came: over HTTP by one of the four protocols, from an operator command (`cli`), from the
 * job worker (`worker`), or from a person signed in to the customer portal (`portal`, docs/portal.md).
 */
export type AuditTransport = "rest" | "jsonrpc" | "mcp" | "a2a" | "cli" | "worker" | "portal";

/** One audited call. Never holds a secret or a body: keys appear only by id. */
export interface AuditEvent {
  readonly at: string;
  readonly request_id: string;
  readonly actor_key_id: string | null;
  readonly actor_account_id: string | null;
  /** The operation (`hipaa.grade`, `createDeployToken`), or `METHOD /route` for a request no operation served. */
  readonly action: string;
  /**
   * The protocol the call came by: rest, jsonrpc, mcp or a2a, or portal for an operation a portal user invoked
   * (cli and worker: {@link LocalAuditEvent}).
   */
  readonly transport: string;
  /** What was acted on, e.g. `practice:1234567893`. */
  readonly resource: string | null;
  readonly outcome: AuditOutcome;
  readonly status: number;
  /** The error code the call answered with (`insufficient_credits`…), null when it succeeded. */
  readonly code: string | null;
  /** Context kept beside the record, not in it: retention may prune it without breaking any proof. */
  readonly client_ip: string;
  readonly duration_ms: number;
  /** `user:<id>` when a portal user invoked the operation (no key); absent or null for API calls. */
  readonly actor_operator?: string | null;
}

/**
 * An audited write that did not come over HTTP: an operator command (`cli`) or the job worker (`worker`). It has no
 * client address or duration, so no context row (and the reputation's average response time stays one of HTTP
 * calls); the OS user who ran an operator command is part of the record.
 */
export interface LocalAuditEvent
  extends Omit<AuditEvent, "transport" | "client_ip" | "duration_ms" | "actor_operator"> {
  readonly transport: Extract<AuditTransport, "cli" | "worker" | "portal">;
  /** The OS user who ran the operator command, `user:<id>` for a portal user; null for the worker. */
  readonly actor_operator: string | null;
}

/**
 * Audit record v1: what the log hashes and can never change once checkpointed — the operation, how it came, who
 * called, on what, the outcome and code, when, the request id, and a random salt (so that a record's hash reveals
 * nothing to someone guessing its fields). The client address and the duration stay out (they live in
 * audit_context, which retention prunes).
 */
export interface AuditRecordV1 {
  readonly v: 1;
  readonly time: string;
  readonly request_id: string;
  /** `operator` (the OS user who ran an operator command) is there only when set: older records hash unchanged. */
  readonly actor: { readonly account_id: string | null; readonly key_id: string | null; readonly operator?: string };
  readonly operation: string;
  /** One of {@link AuditTransport}. */
  readonly transport: string;
  readonly resource: string | null;
  readonly outcome: AuditOutcome;
  readonly status: number;
  readonly code: string | null;
  /** 16 random bytes, hex. */
  readonly salt: string;
}

/** The v1 record of an event, from its fields as stored (the columns of audit_events) and its salt. */
export function auditRecordOf(
  e: Omit<AuditEvent, "client_ip" | "duration_ms" | "outcome"> & {
    readonly outcome: string;
    readonly actor_operator?: string | null;
  },
  salt: string,
): AuditRecordV1 {
  const operator = e.actor_operator ?? null;
  return {
    v: 1,
    time: e.at,
    request_id: e.request_id,
    actor: {
      account_id: e.actor_account_id,
      key_id: e.actor_key_id,
      ...(operator !== null ? { operator } : {}),
    },
    operation: e.action,
    transport: e.transport,
    resource: e.resource,
    outcome: e.outcome as AuditOutcome,
    status: e.status,
    code: e.code,
    salt,
  };
}

/**
 * The record's canonical JSON (RFC 8785 for these values: keys sorted, no whitespace; strings, null and integers
 * only). Every call is hashed, so this is the fixed-shape form: the keys written out in sorted order and each value
 * given to JSON.stringify, which quotes a string exactly as RFC 8785 does (tests hold the two equal, whatever the
 * strings hold). An absent `actor.operator` is left out.
 */
export function auditRecordJson(r: AuditRecordV1): string {
  return recordText(
    r.actor.account_id,
    r.actor.key_id,
    r.actor.operator ?? null,
    r.code,
    r.operation,
    r.outcome,
    r.request_id,
    r.resource,
    r.salt,
    r.status,
    r.time,
    r.transport,
  );
}

const q = JSON.stringify;

/**
 * The v1 text from its fields (in the record's key order). Written out rather than built as an object and
 * stringified: ~0.2 µs less per audited call (docs/performance.md#the-audit-logs-cost). Every value goes through
 * JSON.stringify, as it did inside the object: the same text for any value, numbers included.
 */
function recordText(
  accountId: string | null,
  keyId: string | null,
  operator: string | null,
  code: string | null,
  operation: string,
  outcome: string,
  requestId: string,
  resource: string | null,
  salt: string,
  status: number,
  time: string,
  transport: string,
): string {
  const actor = `{"account_id":${q(accountId)},"key_id":${q(keyId)}${operator !== null ? `,"operator":${q(operator)}` : ""}}`;
  return (
    `{"actor":${actor},"code":${q(code)},"operation":${q(operation)},"outcome":${q(outcome)},` +
    `"request_id":${q(requestId)},"resource":${q(resource)},"salt":${q(salt)},"status":${q(status)},` +
    `"time":${q(time)},"transport":${q(transport)},"v":1}`
  );
}

/**
 * The v1 text of an event as the hot path's writer stores it (what `auditRecordJson(auditRecordOf(e, salt))`
 * answers), if the event has every field a v1 record must have (time, request id, operation, transport, outcome:
 * strings; status: an integer). On SQLite nothing in the store checks them any more (migration 025: the fields are a
 * view's, read from the text), so the hot path's writer does, for the price of a few typeof tests; the other
 * writers' trigger refuses a missing field itself. PostgreSQL's columns are NOT NULL.
 */
export function eventRecordJson(e: AuditEvent, salt: string): string {
  if (typeof e.at !== "string") throw new IncompleteAuditRecord("audit record without time");
  if (typeof e.request_id !== "string") throw new IncompleteAuditRecord("audit record without request_id");
  if (typeof e.action !== "string") throw new IncompleteAuditRecord("audit record without operation");
  if (typeof e.transport !== "string") throw new IncompleteAuditRecord("audit record without transport");
  if (typeof e.outcome !== "string") throw new IncompleteAuditRecord("audit record without outcome");
  if (!Number.isInteger(e.status)) throw new IncompleteAuditRecord("audit record without an integer status");
  return recordText(
    e.actor_account_id,
    e.actor_key_id,
    e.actor_operator ?? null,
    e.code,
    e.action,
    e.outcome,
    e.request_id,
    e.resource,
    salt,
    e.status,
    e.at,
    e.transport,
  );
}

/** RFC 9162 leaf hash of a record: SHA-256 over 0x00 followed by the record's canonical JSON, hex. */
export function auditLeafHash(record: AuditRecordV1): string {
  return hash("sha256", `\0${auditRecordJson(record)}`, "hex");
}

/** Salts drawn from one pooled random buffer (one randomBytes call per 256 events, not one per event). */
const SALT_BYTES = 16;
let saltPool = Buffer.alloc(0);
let saltAt = 0;
export function newAuditSalt(): string {
  if (saltAt + SALT_BYTES > saltPool.length) {
    saltPool = randomBytes(SALT_BYTES * 256);
    saltAt = 0;
  }
  const salt = saltPool.toString("hex", saltAt, saltAt + SALT_BYTES);
  saltAt += SALT_BYTES;
  return salt;
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
  "actor_operator",
  "action",
  "transport",
  "resource",
  "outcome",
  "status",
  "code",
  "salt",
] as const;

/** An audit record lacking a field every v1 record has: refused before it is stored (and hashed for good). */
export class IncompleteAuditRecord extends Error {
  readonly code = "HCS_AUDIT_RECORD_INCOMPLETE";
}

/** SQLite's audit_records: the record's canonical text, nothing else (migrations 024, 025). */
const RECORD_COLUMN = ["record"] as const;

const CONTEXT_COLUMNS = ["event_id", "at", "client_ip", "duration_ms"] as const;

/** Appends an audit event inside the caller's transaction. */
export function appendAuditEvent(hot: HotSql, trx: Transaction<Database>, event: AuditEvent): Promise<void> {
  return appendAuditEvents(hot, trx, [event]);
}

/**
 * An event's columns that name who did what to which resource, in the order every writer of audit_events lists them
 * first (the serving thread's multi-row insert here, PostgreSQL's one-statement settlement, hcs_settle_group).
 */
export function auditEventIdentity(e: AuditEvent): unknown[] {
  return [
    e.at,
    e.request_id,
    e.actor_key_id,
    e.actor_account_id,
    e.actor_operator ?? null,
    e.action,
    e.transport,
    e.resource,
  ];
}

/** The duration as the context row keeps it: milliseconds to the microsecond. */
export const storedDuration = (e: AuditEvent): number => Math.round(e.duration_ms * 1000) / 1000;

/**
 * Appends audit events, in order, inside the caller's transaction (a group commit writes its events together):
 * each record's fields with its salt, and its context (address, duration) beside it, keyed by the event id. The
 * request path only inserts: the record is hashed into its leaf, and given its place in the log, later by the
 * sequencer, in commit order (docs/audit.md).
 */
export async function appendAuditEvents(hot: HotSql, trx: HotExecutor, events: readonly AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  // Hot path (every audited call).
  const salts = events.map(() => newAuditSalt());
  // The context row is keyed by the event's id (sequential keys: random ones, such as the salt, made every insert
  // land on a cold page of a growing index and cost the grade-lookup bench two thirds of its batch throughput).
  const ids = await insertEvents(hot, trx, events, salts);
  await insertRows(
    hot,
    trx,
    "audit_context",
    CONTEXT_COLUMNS,
    events.map((e, i) => [ids[i]!, e.at, e.client_ip, storedDuration(e)]),
  );
  if (engineCapabilities(hot.engine).audit.evidenceTable) {
    // SQLite's evidence table (migration 026): the events of the evidence operations, by resource. Rare; a set
    // lookup for the others.
    const evidence: [string, number][] = [];
    for (const [i, e] of events.entries())
      if (e.resource !== null && isEvidenceOperation(e.action)) evidence.push([e.resource, ids[i]!]);
    if (evidence.length > 0) await insertRows(hot, trx, "audit_evidence", EVIDENCE_COLUMNS, evidence);
  }
}

const EVIDENCE_COLUMNS = ["resource", "event_id"] as const;

/**
 * Inserts event rows and answers their ids in order. SQLite stores each record's canonical text (migration 024: its
 * fields are read from it), built here, and answers ids from each statement's own last rowid (its rows take
 * consecutive AUTOINCREMENT ids) instead of RETURNING, cheaper on every audited call. PostgreSQL: the fields,
 * RETURNING matched by salt (it does not promise RETURNING's order).
 */
async function insertEvents(
  hot: HotSql,
  trx: HotExecutor,
  events: readonly AuditEvent[],
  salts: readonly string[],
): Promise<number[]> {
  if (engineCapabilities(hot.engine).audit.recordText)
    return insertRowsForIds(
      hot,
      "audit_records",
      RECORD_COLUMN,
      events.map((e, i) => [eventRecordJson(e, salts[i]!)]),
    );
  const rows = events.map((e, i) => [...auditEventIdentity(e), e.outcome, e.status, e.code, salts[i]!]);
  const inserted = await insertRows<{ id: number | string; salt: string }>(
    hot,
    trx,
    "audit_events",
    AUDIT_COLUMNS,
    rows,
    ["id", "salt"],
  );
  const idOf = new Map(inserted.map((r) => [r.salt, Number(r.id)]));
  return salts.map((salt) => idOf.get(salt)!);
}

/** Writes a change's audit event inside the change's own transaction, given what the change made or found. */
export type AuditInTransaction<R> = (trx: Transaction<Database>, done: R) => Promise<void>;

/**
 * Appends the audit event of a write that did not come over HTTP (an operator command, a worker refund) inside the
 * write's transaction, so the event is durable exactly when the write is. Not a hot path: the query builder, and no
 * context row (see {@link LocalAuditEvent}). Its fields go into the view audit_event_input, the same on both
 * engines: on SQLite its trigger stores the record's canonical text, on PostgreSQL the insert passes through to
 * audit_events (migration 024).
 */
export async function recordAuditEvent(trx: Transaction<Database>, event: LocalAuditEvent): Promise<void> {
  const salt = newAuditSalt();
  await trx
    .insertInto("audit_event_input")
    .values({
      at: event.at,
      request_id: event.request_id,
      actor_key_id: event.actor_key_id,
      actor_account_id: event.actor_account_id,
      actor_operator: event.actor_operator,
      action: event.action,
      transport: event.transport,
      resource: event.resource,
      outcome: event.outcome,
      status: event.status,
      code: event.code,
      salt,
    })
    .execute();
}

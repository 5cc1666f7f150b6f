import { sql } from "kysely";
import { createCheckpoint } from "../audit/checkpoints.js";
import type { AuditLogKeys } from "../audit/log-keys.js";
import { sequenceAuditLog } from "../audit/sequencer.js";
import { type AuditEvent, appendAuditEvents } from "../services/audit.js";
import type { Store } from "../store/store.js";
import { testLogKeys } from "./audit-log-keys.js";

/** The n-th of a run of audit events, distinct by time and request id. */
export const auditEvent = (n: number): AuditEvent => ({
  at: new Date(1_790_000_000_000 + n).toISOString(),
  request_id: `req-${n}`,
  actor_key_id: "key_1",
  actor_account_id: "acc_1",
  action: "hipaa.grade",
  transport: "rest",
  resource: "practice:1234567893",
  outcome: "success",
  status: 200,
  code: null,
  client_ip: "127.0.0.1",
  duration_ms: 1,
});

/** Appends events `from` … `from + count - 1` in one group commit, as the request path does. */
export const appendAuditRun = (store: Store, from: number, count: number): Promise<void> =>
  store.writes.run((trx) =>
    appendAuditEvents(
      store.hot,
      trx,
      Array.from({ length: count }, (_, i) => auditEvent(from + i)),
    ),
  );

/**
 * Migrates `store`, provisions its log keys (importing `keyDataDir`'s key file when given: a key shared by several
 * test stores) and builds a log of 45 events: checkpoints at 20 and 40 (the second after two group commits and two
 * sequencer runs, so the journal holds several runs), then five events sequenced after the last checkpoint.
 */
export async function buildCheckpointedLog(store: Store, keyDataDir?: string): Promise<AuditLogKeys> {
  await store.migrate();
  const key = await testLogKeys(store, keyDataDir ? { dataDir: keyDataDir } : {});
  await appendAuditRun(store, 0, 20);
  await sequenceAuditLog(store);
  await createCheckpoint(store, key, new Date());
  await appendAuditRun(store, 20, 12);
  await appendAuditRun(store, 32, 8);
  await sequenceAuditLog(store, 5);
  await sequenceAuditLog(store);
  await createCheckpoint(store, key, new Date());
  await appendAuditRun(store, 40, 5);
  await sequenceAuditLog(store);
  return key;
}

/** Where each field an alteration test changes lives in the record's text (SQLite stores the text: migration 024). */
const RECORD_PATHS = { resource: "$.resource", code: "$.code", status: "$.status", outcome: "$.outcome" } as const;
type AlterableField = keyof typeof RECORD_PATHS;

/**
 * Changes stored fields of event `id` as someone with write access to the store would — on SQLite in the record's
 * text (its fields are read from it and cannot be changed apart from it), on PostgreSQL in the columns — and answers
 * how to put the event back exactly as it was.
 */
export async function alterAuditEvent(
  store: Store,
  id: number,
  fields: Partial<Record<AlterableField, string | number | null>>,
): Promise<() => Promise<void>> {
  const entries = Object.entries(fields) as [AlterableField, string | number | null][];
  if (store.engine === "sqlite") {
    const { rows } = await sql<{ record: string }>`select record from audit_records where id = ${id}`.execute(store.db);
    const before = rows[0]!.record;
    // A bound JavaScript number is a real to SQLite (403.0): the status is an integer in the text.
    const value = (v: string | number | null) => (typeof v === "number" ? sql`cast(${v} as integer)` : sql`${v}`);
    const set = sql.join(entries.map(([f, v]) => sql`${RECORD_PATHS[f]}, ${value(v)}`));
    await sql`update audit_records set record = json_set(record, ${set}) where id = ${id}`.execute(store.db);
    return async () => {
      await sql`update audit_records set record = ${before} where id = ${id}`.execute(store.db);
    };
  }
  const before = await store.db.selectFrom("audit_events").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  await store.db.updateTable("audit_events").set(Object.fromEntries(entries)).where("id", "=", id).execute();
  return async () => {
    const { id: _id, ...was } = before;
    await store.db.updateTable("audit_events").set(was).where("id", "=", id).execute();
  };
}

/** Swaps what two events hold (each keeps its id): their records' text on SQLite, their columns on PostgreSQL. */
export async function swapAuditEvents(store: Store, a: number, b: number): Promise<void> {
  if (store.engine === "sqlite") {
    await sql`update audit_records set record = case id
        when ${a} then (select record from audit_records where id = ${b})
        else (select record from audit_records where id = ${a}) end
      where id in (${a}, ${b})`.execute(store.db);
    return;
  }
  const ra = await store.db.selectFrom("audit_events").selectAll().where("id", "=", a).executeTakeFirstOrThrow();
  const rb = await store.db.selectFrom("audit_events").selectAll().where("id", "=", b).executeTakeFirstOrThrow();
  const { id: _a, leaf_index: _ia, ...va } = ra;
  const { id: _b, leaf_index: _ib, ...vb } = rb;
  await store.db.updateTable("audit_events").set(vb).where("id", "=", a).execute();
  await store.db.updateTable("audit_events").set(va).where("id", "=", b).execute();
}

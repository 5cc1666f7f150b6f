import { createCheckpoint } from "../audit/checkpoints.js";
import type { LogKey } from "../audit/log-key.js";
import { sequenceAuditLog } from "../audit/sequencer.js";
import { type AuditEvent, appendAuditEvents } from "../services/audit.js";
import type { Store } from "../store/store.js";

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
 * Migrates `store` and builds a log of 45 events: checkpoints at 20 and 40 (the second after two group commits and
 * two sequencer runs, so the journal holds several runs), then five events sequenced after the last checkpoint.
 */
export async function buildCheckpointedLog(store: Store, key: LogKey): Promise<void> {
  await store.migrate();
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
}

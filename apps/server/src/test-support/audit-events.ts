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

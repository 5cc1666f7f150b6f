import { type Kysely, sql } from "kysely";
import { iso } from "../services/deps.js";
import { engineCapabilities } from "../store/engine-capabilities.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Database, WebhookDeliveriesTable } from "../store/schema.js";
import { exponentialBackoffMs } from "../util/backoff.js";
import type { DeliveryOutcome } from "./sender.js";

// Serializes delivery claims across processes on PostgreSQL (transaction-scoped advisory lock), so that counting a
// receiver's in-flight deliveries and leasing more of them is one step and the per-receiver bound holds cluster-wide.
// Claims take milliseconds; serializing them costs nothing next to the HTTP attempts they start.
const CLAIM_LOCK = 0x4843_5357; // "HCSW"

export interface ClaimRequest {
  readonly workerId: string;
  readonly nowMs: number;
  readonly leaseMs: number;
  /** Deliveries this worker may start now (its free slots). */
  readonly limit: number;
  /** Most deliveries in flight to one receiver, counted over every worker sharing the database. */
  readonly perReceiver: number;
}

/**
 * Leases due deliveries fairly: receivers already at their bound (counting every worker's live leases) are left
 * out of the query, and no receiver gets more than its remaining room, so a stuck receiver's backlog, however old
 * and long, cannot fill the slots others need. `deferred` counts due rows passed over for their receiver's bound.
 */
export async function claimDeliveries(
  db: Kysely<Database>,
  engine: Engine,
  o: ClaimRequest,
): Promise<{ claimed: WebhookDeliveriesTable[]; deferred: number }> {
  if (o.limit <= 0) return { claimed: [], deferred: 0 };
  const now = iso(o.nowMs);
  return db.transaction().execute(async (trx) => {
    const { locks } = engineCapabilities(engine);
    await locks.exclusive(trx, CLAIM_LOCK);
    const leased = await trx
      .selectFrom("webhook_deliveries")
      .select((eb) => ["receiver", eb.fn.countAll<number>().as("n")])
      .where("status", "=", "pending")
      .where("lease_expires_at", ">=", now)
      .groupBy("receiver")
      .execute();
    const inFlight = new Map(leased.map((r) => [r.receiver, Number(r.n)]));
    const full = leased.filter((r) => Number(r.n) >= o.perReceiver).map((r) => r.receiver);

    let candidates = trx
      .selectFrom("webhook_deliveries")
      .select(["id", "receiver"])
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", now)]))
      .orderBy("next_attempt_at")
      // Room for several receivers per round; the caller claims again at once when some were deferred.
      .limit(o.limit * Math.max(1, o.perReceiver) * 2);
    if (full.length > 0) candidates = candidates.where("receiver", "not in", full);
    candidates = locks.claim(candidates);

    const ids: string[] = [];
    let deferred = 0;
    for (const c of await candidates.execute()) {
      if (ids.length === o.limit) break;
      const n = inFlight.get(c.receiver) ?? 0;
      if (n >= o.perReceiver) {
        deferred++;
        continue;
      }
      inFlight.set(c.receiver, n + 1);
      ids.push(c.id);
    }
    if (ids.length === 0) return { claimed: [], deferred };
    const claimed = await trx
      .updateTable("webhook_deliveries")
      .set({ lease_owner: o.workerId, lease_expires_at: iso(o.nowMs + o.leaseMs), attempts: sql`attempts + 1` })
      .where("id", "in", ids)
      .returningAll()
      .execute();
    return { claimed, deferred };
  });
}

/**
 * The rows an attempt may write: still leased by this worker for this very attempt (claiming counts attempts, so
 * `attempts` fences off an older attempt of the same worker) and not finished. Nothing matches once the lease was
 * taken over, and then the attempt's result is dropped.
 */
function heldAttempt(db: Kysely<Database>, d: WebhookDeliveriesTable, workerId: string) {
  return db
    .updateTable("webhook_deliveries")
    .where("id", "=", d.id)
    .where("lease_owner", "=", workerId)
    .where("attempts", "=", d.attempts)
    .where("status", "=", "pending");
}

export type AttemptRecord = "delivered" | "retrying" | "failed" | "lost";

/** Records an attempt's outcome if the lease is still ours: delivered, rescheduled with backoff, or given up. */
export async function recordAttempt(
  db: Kysely<Database>,
  d: WebhookDeliveriesTable,
  o: { workerId: string; outcome: DeliveryOutcome; nowMs: number; retryBaseMs: number },
): Promise<AttemptRecord> {
  const { outcome } = o;
  let state: AttemptRecord = "delivered";
  let next = d.next_attempt_at;
  if (!outcome.ok) {
    const at = o.nowMs + exponentialBackoffMs(d.attempts, o.retryBaseMs, 3_600_000);
    state = at > Date.parse(d.give_up_at) ? "failed" : "retrying";
    next = iso(at);
  }
  const row = await heldAttempt(db, d, o.workerId)
    .set({
      status: state === "retrying" ? "pending" : state,
      next_attempt_at: next,
      last_attempt_at: iso(o.nowMs),
      last_status_code: outcome.status,
      last_error: outcome.ok ? null : outcome.error.slice(0, 300),
      lease_owner: null,
      lease_expires_at: null,
    })
    .returning("id")
    .executeTakeFirst();
  return row ? state : "lost";
}

/** Fails a held delivery for good without an HTTP attempt (nothing could ever make it succeed). */
export async function failDelivery(
  db: Kysely<Database>,
  d: WebhookDeliveriesTable,
  o: { workerId: string; reason: string; nowMs: number },
): Promise<boolean> {
  const row = await heldAttempt(db, d, o.workerId)
    .set({
      status: "failed",
      last_attempt_at: iso(o.nowMs),
      last_status_code: null,
      last_error: o.reason.slice(0, 300),
      lease_owner: null,
      lease_expires_at: null,
    })
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Hands a held delivery back, due at once, after an attempt interrupted by a stopping worker. */
export async function releaseDelivery(
  db: Kysely<Database>,
  d: WebhookDeliveriesTable,
  o: { workerId: string; reason: string },
): Promise<boolean> {
  const row = await heldAttempt(db, d, o.workerId)
    .set({ lease_owner: null, lease_expires_at: null, last_error: o.reason.slice(0, 300) })
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

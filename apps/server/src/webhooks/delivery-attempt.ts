import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { SecretBox } from "../secrets/master-key.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Database, WebhookDeliveriesTable } from "../store/schema.js";
import { failDelivery, recordAttempt, releaseDelivery } from "./deliveries.js";
import { sendWebhook, type WebhookSenderOptions } from "./sender.js";

export interface DeliveryDeps {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  readonly secrets: SecretBox;
  readonly now: () => Date;
  readonly logger: Logger;
}

export interface DeliveryOptions extends WebhookSenderOptions {
  /** First retry delay; doubles per attempt, capped at one hour. */
  readonly retryBaseMs: number;
}

/** Why a delivery was failed without an attempt: nothing that happens later could make it succeed. */
type PermanentFailure = "account_missing" | "secret_undecryptable";

const PERMANENT_FAILURE_TEXT: Record<PermanentFailure, string> = {
  account_missing: "the account no longer exists; not retried",
  secret_undecryptable:
    "the account's webhook secret cannot be decrypted with this server's master key (HCS_MASTER_KEY differs from " +
    "the one that sealed it); not retried",
};

/**
 * Runs one delivery this worker has leased: opens the account's secret, makes one attempt, and records its outcome
 * only while the lease is still this attempt's. Everything is logged by ids and codes, never with secret material.
 */
export async function runDelivery(
  deps: DeliveryDeps,
  d: WebhookDeliveriesTable,
  workerId: string,
  options: DeliveryOptions,
  signal: AbortSignal,
): Promise<void> {
  const ids = { delivery_id: d.id, job_id: d.job_id, attempt: d.attempts, worker: workerId };
  const secret = await accountSecret(deps, d.account_id);
  if (typeof secret !== "string") {
    const recorded = await failDelivery(deps.db, d, {
      workerId,
      reason: PERMANENT_FAILURE_TEXT[secret.failure],
      nowMs: deps.now().getTime(),
    });
    deps.logger.error(
      { ...ids, account_id: d.account_id, reason: secret.failure, recorded },
      "webhook delivery failed permanently",
    );
    return;
  }
  const outcome = await sendWebhook(d, secret, options, deps.now(), signal);
  if (!outcome.ok && outcome.code === "interrupted") {
    // Stopping is not the receiver's fault: the delivery is due again at once, for any worker.
    await releaseDelivery(deps.db, d, { workerId, reason: "attempt interrupted: the worker stopped" });
    deps.logger.info(ids, "webhook attempt interrupted");
    return;
  }
  const state = await recordAttempt(deps.db, d, {
    workerId,
    outcome,
    nowMs: deps.now().getTime(),
    retryBaseMs: options.retryBaseMs,
  });
  if (state === "lost") {
    // Another worker took the delivery over (our lease lapsed): its attempt decides, ours writes nothing.
    deps.logger.warn({ ...ids, status: outcome.status, reason: "lease_lost" }, "webhook attempt result discarded");
    return;
  }
  if (!outcome.ok)
    deps.logger.info(
      { ...ids, status: outcome.status, code: outcome.code, error: outcome.error, gave_up: state === "failed" },
      "webhook delivery failed",
    );
}

async function accountSecret(deps: DeliveryDeps, accountId: string): Promise<string | { failure: PermanentFailure }> {
  const account = await deps.db
    .selectFrom("accounts")
    .select("webhook_secret_enc")
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (!account) return { failure: "account_missing" };
  try {
    return deps.secrets.open(account.webhook_secret_enc);
  } catch {
    // The error says only that authentication failed; it is not logged, so nothing of the sealed value leaks.
    return { failure: "secret_undecryptable" };
  }
}

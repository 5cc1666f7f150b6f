import type { LookupAddress } from "node:dns";
import { Agent } from "node:https";
import { isIP } from "node:net";
import { createSecureContext, rootCertificates } from "node:tls";
import { WEBHOOK_HEADERS } from "@hcs/protocol";
import { type Kysely, sql } from "kysely";
import type { Logger } from "pino";
import { isServiceError } from "../errors.js";
import type { SecretBox } from "../secrets/master-key.js";
import { iso } from "../services/deps.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Database, WebhookDeliveriesTable } from "../store/schema.js";
import { exponentialBackoffMs } from "../util/backoff.js";
import { signWebhook } from "./signature.js";
import { type ResolveHost, vetCallbackUrl } from "./target-policy.js";

export interface WebhookSenderOptions {
  readonly workerId: string;
  readonly allowPrivateTargets: boolean;
  /** Extra trusted CAs (PEM) besides the system roots (HCS_EXTRA_CA_FILE). */
  readonly extraCaPem: readonly string[];
  /** First retry delay; doubles per attempt, capped at one hour. */
  readonly retryBaseMs: number;
  readonly timeoutMs?: number;
  readonly resolve?: ResolveHost;
  readonly userAgent?: string;
}

export type DeliveryOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

const DEFAULT_TIMEOUT_MS = 10_000;
// A claimed delivery whose sender died is picked up again once this lapses: one request timeout plus margin.
const LEASE_MS = DEFAULT_TIMEOUT_MS + 5_000;

// Trusting extra CAs means listing the system roots beside them, and parsing ~150 roots costs tens of milliseconds
// of event-loop time: one agent per CA list (fixed for a worker) holds the context built once. Without extra CAs
// Node's default store, parsed once per process, is used as is.
const agents = new WeakMap<readonly string[], Agent>();
function agentTrusting(extraCaPem: readonly string[]): Agent | null {
  if (extraCaPem.length === 0) return null;
  let agent = agents.get(extraCaPem);
  if (!agent) {
    agent = new Agent({ secureContext: createSecureContext({ ca: [...rootCertificates, ...extraCaPem] }) });
    agents.set(extraCaPem, agent);
  }
  return agent;
}

/**
 * POSTs one delivery: the callback URL is vetted again now (DNS may have changed since dispatch) and the
 * connection goes to the vetted address only, so a rebinding resolver cannot redirect it. No redirects followed.
 */
export async function sendWebhook(
  delivery: WebhookDeliveriesTable,
  secret: string,
  options: WebhookSenderOptions,
  now: Date,
): Promise<DeliveryOutcome> {
  let target: Awaited<ReturnType<typeof vetCallbackUrl>>;
  try {
    target = await vetCallbackUrl(delivery.url, {
      allowPrivateTargets: options.allowPrivateTargets,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
  } catch (err) {
    return { ok: false, status: null, error: isServiceError(err) ? err.message : "callback URL could not be checked" };
  }
  const family = isIP(target.address) === 6 ? 6 : 4;
  const agent = agentTrusting(options.extraCaPem);
  try {
    // got is loaded with the first delivery, not by every server process.
    const { default: got } = await import("got");
    const res = await got.post(target.url, {
      body: delivery.body,
      headers: {
        "content-type": "application/json",
        "user-agent": options.userAgent ?? "HCS-Webhooks/1.0",
        [WEBHOOK_HEADERS.signature]: signWebhook(secret, delivery.body, now),
        [WEBHOOK_HEADERS.delivery]: delivery.id,
        [WEBHOOK_HEADERS.event]: delivery.event,
      },
      timeout: { request: options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
      followRedirect: false,
      throwHttpErrors: false,
      retry: { limit: 0 },
      ...(agent ? { agent: { https: agent } } : {}),
      dnsLookup: ((_host: string, opts: unknown, cb?: unknown) => {
        const callback = (typeof opts === "function" ? opts : cb) as (
          err: Error | null,
          a: string | LookupAddress[],
          f?: number,
        ) => void;
        if (typeof opts === "object" && opts !== null && (opts as { all?: boolean }).all)
          callback(null, [{ address: target.address, family }]);
        else callback(null, target.address, family);
      }) as never,
    });
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, status: res.statusCode };
    return { ok: false, status: res.statusCode, error: `receiver answered ${res.statusCode}` };
  } catch (err) {
    return { ok: false, status: null, error: (err as { code?: string }).code ?? "request failed" };
  }
}

/** Claims due deliveries for this sender (lease), skipping rows another process is claiming on PostgreSQL. */
async function claimDeliveries(
  db: Kysely<Database>,
  engine: Engine,
  workerId: string,
  nowMs: number,
  limit: number,
): Promise<WebhookDeliveriesTable[]> {
  const now = iso(nowMs);
  return db.transaction().execute(async (trx) => {
    let q = trx
      .selectFrom("webhook_deliveries")
      .select("id")
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", now)]))
      .orderBy("next_attempt_at")
      .limit(limit);
    if (engine === "postgres") q = q.forUpdate().skipLocked();
    const ids = (await q.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    return trx
      .updateTable("webhook_deliveries")
      .set({ lease_owner: workerId, lease_expires_at: iso(nowMs + LEASE_MS), attempts: sql`attempts + 1` })
      .where("id", "in", ids)
      .returningAll()
      .execute();
  });
}

/**
 * Sends every due delivery once (at-least-once overall: a delivery is marked delivered only after a 2xx). Failed
 * attempts are rescheduled with exponential backoff until 24 hours after the delivery was queued.
 */
export async function deliverDueWebhooks(
  deps: { db: Kysely<Database>; engine: Engine; secrets: SecretBox; now: () => Date; logger: Logger },
  options: WebhookSenderOptions,
  limit = 20,
): Promise<number> {
  const nowMs = deps.now().getTime();
  const due = await claimDeliveries(deps.db, deps.engine, options.workerId, nowMs, limit);
  await Promise.all(
    due.map(async (d) => {
      const account = await deps.db
        .selectFrom("accounts")
        .select("webhook_secret_enc")
        .where("id", "=", d.account_id)
        .executeTakeFirst();
      const outcome: DeliveryOutcome = account
        ? await sendWebhook(d, deps.secrets.open(account.webhook_secret_enc), options, deps.now())
        : { ok: false, status: null, error: "account no longer exists" };
      const at = deps.now().getTime();
      if (outcome.ok) {
        await deps.db
          .updateTable("webhook_deliveries")
          .set({
            status: "delivered",
            last_attempt_at: iso(at),
            last_status_code: outcome.status,
            last_error: null,
            lease_owner: null,
            lease_expires_at: null,
          })
          .where("id", "=", d.id)
          .execute();
        return;
      }
      const next = at + exponentialBackoffMs(d.attempts, options.retryBaseMs, 3_600_000);
      const giveUp = next > Date.parse(d.give_up_at) || !account;
      await deps.db
        .updateTable("webhook_deliveries")
        .set({
          status: giveUp ? "failed" : "pending",
          next_attempt_at: iso(next),
          last_attempt_at: iso(at),
          last_status_code: outcome.status,
          last_error: outcome.error.slice(0, 300),
          lease_owner: null,
          lease_expires_at: null,
        })
        .where("id", "=", d.id)
        .execute();
      deps.logger.info(
        {
          delivery_id: d.id,
          job_id: d.job_id,
          attempt: d.attempts,
          status: outcome.status,
          error: outcome.error,
          gave_up: giveUp,
        },
        "webhook delivery failed",
      );
    }),
  );
  return due.length;
}

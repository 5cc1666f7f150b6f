import { randomUUID } from "node:crypto";
import { WEBHOOK_RETRY_WINDOW_MS, type WebhookEvent } from "@hcs/protocol";
import type { Transaction } from "kysely";
import type { Database, JobsTable } from "../store/schema.js";

/**
 * Queues a webhook delivery in the job's own transaction (outbox): the delivery exists exactly when the job's new
 * state does. The body is fixed now, so every retry sends the same bytes under the same X-HCS-Delivery id.
 */
export async function enqueueWebhook(
  trx: Transaction<Database>,
  job: JobsTable,
  event: WebhookEvent,
  payload: unknown,
  nowMs: number,
): Promise<string> {
  if (!job.callback_url) throw new Error("enqueueWebhook: the job has no callback_url");
  const id = randomUUID();
  const now = new Date(nowMs).toISOString();
  await trx
    .insertInto("webhook_deliveries")
    .values({
      id,
      job_id: job.id,
      account_id: job.account_id,
      event,
      url: canonicalUrl(job.callback_url),
      body: JSON.stringify(payload),
      status: "pending",
      attempts: 0,
      next_attempt_at: now,
      last_attempt_at: null,
      last_status_code: null,
      last_error: null,
      lease_owner: null,
      lease_expires_at: null,
      created_at: now,
      give_up_at: new Date(nowMs + WEBHOOK_RETRY_WINDOW_MS).toISOString(),
    })
    .execute();
  return id;
}

/**
 * The URL as `URL.href` (lower-case host, default port dropped, "/" after the origin): the same request, and the
 * form deliveries.ts relies on to match a receiver's deliveries by their `origin/` prefix.
 */
function canonicalUrl(raw: string): string {
  try {
    return new URL(raw).href;
  } catch {
    // Dispatch vetted it; if it still does not parse, every attempt fails as invalid_target and says why.
    return raw;
  }
}

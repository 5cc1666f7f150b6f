import { randomUUID } from "node:crypto";
import { WEBHOOK_RETRY_WINDOW_MS, type WebhookEvent } from "@hcs/protocol";
import type { Transaction } from "kysely";
import type { Database, JobsTable } from "../store/schema.js";
import { receiverOf } from "./receiver.js";

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
      url: job.callback_url,
      receiver: receiverOf(job.callback_url),
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

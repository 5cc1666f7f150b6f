import { setTimeout as sleep } from "node:timers/promises";
import type { ServiceDeps } from "../services/deps.js";

/** How long a blocking SendMessage waits for its job to end before answering the task as it stands. */
export const BLOCKING_WAIT_MS = 30_000;

const FIRST_POLL_MS = 100;
const MAX_POLL_MS = 1_000;

/**
 * Waits until the job has ended (completed or failed) or `timeoutMs` has passed, whichever is first. The job may
 * run in another process, so the store is polled (one primary-key read, backing off from 100 ms to 1 s): the
 * store is the one place every worker's progress shows.
 */
export async function awaitJobEnd(deps: ServiceDeps, jobId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let delay = FIRST_POLL_MS;
  for (;;) {
    const row = await deps.store.db.selectFrom("jobs").select("status").where("id", "=", jobId).executeTakeFirst();
    if (!row || row.status === "completed" || row.status === "failed") return;
    const left = deadline - Date.now();
    if (left <= 0) return;
    await sleep(Math.min(delay, left));
    delay = Math.min(delay * 1.5, MAX_POLL_MS);
  }
}

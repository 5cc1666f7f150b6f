import { Agent } from "node:https";
import { createSecureContext, rootCertificates } from "node:tls";
import { WEBHOOK_HEADERS } from "@hcs/protocol";
import { isServiceError } from "../errors.js";
import type { WebhookDeliveriesTable } from "../store/schema.js";
import { postCapped } from "./capped-post.js";
import { signWebhook } from "./signature.js";
import { type ResolveHost, type VettedTarget, vetCallbackUrl } from "./target-policy.js";

export interface WebhookSenderOptions {
  readonly allowPrivateTargets: boolean;
  /** Extra trusted CAs (PEM) besides the system roots (HCS_EXTRA_CA_FILE). */
  readonly extraCaPem: readonly string[];
  /** Time from the start of an attempt to the receiver's first reply byte. */
  readonly firstByteTimeoutMs?: number;
  /** Time for the whole attempt: DNS check, connection, request and reading the reply. */
  readonly totalTimeoutMs?: number;
  readonly resolve?: ResolveHost;
  readonly userAgent?: string;
}

/** Why an attempt failed; `error` (stored as last_error) says it in words. */
export type AttemptFailureCode =
  | "invalid_target"
  | "first_byte_timeout"
  | "total_timeout"
  | "redirect"
  | "http_status"
  | "network"
  | "interrupted";

export type DeliveryOutcome =
  | { ok: true; status: number }
  | { ok: false; status: number | null; code: AttemptFailureCode; error: string };

// docs/webhooks.md asks receivers to answer within 10 s; the rest of the total covers a slow DNS check and reading
// an error reply's excerpt. The delivery lease is derived from the total (delivery-loop.ts).
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 10_000;
export const DEFAULT_TOTAL_TIMEOUT_MS = 15_000;
/** Most bytes of a reply ever read: an error reply's first 4 KiB, for last_error. */
export const MAX_REPLY_BYTES = 4096;
const EXCERPT_CHARS = 200;

// Keep-alive stays off: every attempt gets a fresh connection to the address vetted for it, and the socket is
// destroyed once the answer is known. Trusting extra CAs means listing the system roots beside them, and parsing
// ~150 roots costs tens of milliseconds of event-loop time, so each CA list (fixed for a worker) gets one agent
// holding the context built once.
const plainAgent = new Agent({ keepAlive: false });
const agents = new WeakMap<readonly string[], Agent>();
function agentTrusting(extraCaPem: readonly string[]): Agent {
  if (extraCaPem.length === 0) return plainAgent;
  let agent = agents.get(extraCaPem);
  if (!agent) {
    agent = new Agent({
      keepAlive: false,
      secureContext: createSecureContext({ ca: [...rootCertificates, ...extraCaPem] }),
    });
    agents.set(extraCaPem, agent);
  }
  return agent;
}

/**
 * POSTs one delivery: the callback URL is vetted again now (DNS may have changed since dispatch) and the
 * connection goes to the vetted address only, so a rebinding resolver cannot redirect it. No redirects followed;
 * the attempt is bounded in time (first byte, total) and in memory (a few KB of reply). Never rejects.
 */
export async function sendWebhook(
  delivery: WebhookDeliveriesTable,
  secret: string,
  options: WebhookSenderOptions,
  now: Date,
  signal?: AbortSignal,
): Promise<DeliveryOutcome> {
  const started = performance.now();
  const firstByteMs = options.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS;
  const totalMs = options.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS;
  const vetted = await vetWithin(delivery.url, options, totalMs);
  if ("error" in vetted) return { ok: false, status: null, ...vetted };
  const spent = performance.now() - started;
  const result = await postCapped(
    vetted,
    {
      body: delivery.body,
      agent: agentTrusting(options.extraCaPem),
      headers: {
        "content-type": "application/json",
        "user-agent": options.userAgent ?? "HCS-Webhooks/1.0",
        [WEBHOOK_HEADERS.signature]: signWebhook(secret, delivery.body, now),
        [WEBHOOK_HEADERS.delivery]: delivery.id,
        [WEBHOOK_HEADERS.event]: delivery.event,
      },
    },
    {
      firstByteMs: Math.max(1, firstByteMs - spent),
      totalMs: Math.max(1, totalMs - spent),
      maxBodyBytes: MAX_REPLY_BYTES,
    },
    signal,
  );
  if (result.kind === "failed") {
    if (result.code === "aborted") return { ok: false, status: null, code: "interrupted", error: result.detail };
    return { ok: false, status: null, code: result.code, error: result.detail };
  }
  const { status } = result;
  if (status >= 200 && status < 300) return { ok: true, status };
  if (status >= 300 && status < 400)
    return { ok: false, status, code: "redirect", error: `receiver answered ${status} (redirects are not followed)` };
  const excerpt = printable(result.excerpt).slice(0, EXCERPT_CHARS);
  return {
    ok: false,
    status,
    code: "http_status",
    error: `receiver answered ${status}${excerpt ? `: ${excerpt}` : ""}`,
  };
}

/** vetCallbackUrl, given up after `totalMs` (a system lookup cannot be cancelled, only abandoned). */
async function vetWithin(
  url: string,
  options: WebhookSenderOptions,
  totalMs: number,
): Promise<VettedTarget | { code: AttemptFailureCode; error: string }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<{ code: AttemptFailureCode; error: string }>((resolve) => {
    timer = setTimeout(
      () => resolve({ code: "total_timeout", error: `callback host not resolved within ${totalMs} ms` }),
      totalMs,
    );
  });
  const vetting = vetCallbackUrl(url, {
    allowPrivateTargets: options.allowPrivateTargets,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  }).catch((err: unknown) => ({
    code: "invalid_target" as const,
    error: isServiceError(err) ? err.message : "callback URL could not be checked",
  }));
  try {
    return await Promise.race([vetting, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A receiver's reply text made safe for one log field: control characters and runs of whitespace become one space. */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, " ").trim();
}

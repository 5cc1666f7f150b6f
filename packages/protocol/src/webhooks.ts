import { z } from "zod";

/** Delivery headers (docs/webhooks.md). */
export const WEBHOOK_HEADERS = {
  signature: "X-HCS-Signature",
  delivery: "X-HCS-Delivery",
  event: "X-HCS-Event",
} as const;

export const WEBHOOK_EVENTS = ["job.completed", "job.failed"] as const;
export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

/** How long a delivery keeps being retried before it is given up. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Receivers should refuse signatures whose timestamp is further than this from their clock (replay guard). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A delivery row as the API reports it. */
export const WebhookDeliverySchema = z
  .object({
    delivery_id: z.uuid(),
    job_id: z.string(),
    event: WebhookEventSchema,
    url: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.int().min(0),
    next_attempt_at: z.iso.datetime().nullable(),
    last_attempt_at: z.iso.datetime().nullable(),
    last_status_code: z.int().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export interface ParsedWebhookSignature {
  readonly timestamp: number;
  readonly signatures: readonly string[];
}

/**
 * Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>…]` (several v1 values appear while a secret is being rotated).
 * Returns null when the header is malformed.
 */
export function parseWebhookSignatureHeader(header: string | null | undefined): ParsedWebhookSignature | null {
  if (!header || header.length > 1024) return null;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (!/^[0-9]{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === "v1") {
      if (!/^[0-9a-f]{64}$/.test(value)) return null;
      signatures.push(value);
    }
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/** The string that is HMAC-SHA256-signed: `<t>.<raw body>`. */
export function webhookSignedPayload(timestamp: number, rawBody: string): string {
  return `${timestamp}.${rawBody}`;
}

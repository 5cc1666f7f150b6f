import { createHmac } from "node:crypto";
import { webhookSignedPayload } from "@hcs/protocol";

/** `X-HCS-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with the account's webhook secret>`. */
export function signWebhook(secret: string, body: string, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  const v1 = createHmac("sha256", secret).update(webhookSignedPayload(t, body)).digest("hex");
  return `t=${t},v1=${v1}`;
}

import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import {
  parseWebhookSignatureHeader,
  WEBHOOK_HEADERS,
  WEBHOOK_TOLERANCE_SECONDS,
  webhookSignedPayload,
} from "@hcs/protocol";
import { createCertificateAuthority, issueServerCertificate } from "../tls/certificates.js";

export interface ReceivedWebhook {
  readonly deliveryId: string;
  readonly event: string;
  readonly signature: string;
  readonly body: string;
  /** Whether the signature verified against the secret the receiver was given. */
  readonly verified: boolean;
}

export interface WebhookReceiver {
  readonly url: string;
  /** PEM of the CA that issued the receiver's certificate (give it to the sender as an extra CA). */
  readonly caPem: string;
  readonly received: ReceivedWebhook[];
  /** Attempts answered while down (503). */
  readonly refused: number;
  /** While down, every delivery gets 503. */
  setDown(down: boolean): void;
  setSecret(secret: string): void;
  close(): Promise<void>;
}

/** Verifies an X-HCS-Signature as docs/webhooks.md tells receivers to. */
export function verifyWebhookSignature(
  header: string | undefined,
  body: string,
  secret: string,
  nowSeconds: number,
): boolean {
  const parsed = parseWebhookSignatureHeader(header);
  if (!parsed || Math.abs(nowSeconds - parsed.timestamp) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = createHmac("sha256", secret).update(webhookSignedPayload(parsed.timestamp, body)).digest();
  return parsed.signatures.some((s) => timingSafeEqual(Buffer.from(s, "hex"), expected));
}

/** An HTTPS webhook receiver on 127.0.0.1 that records and verifies deliveries (lab, demo and tests). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const ca = createCertificateAuthority("HCS test webhook receiver CA");
  const cert = issueServerCertificate(ca, ["127.0.0.1", "localhost"]);
  const received: ReceivedWebhook[] = [];
  let down = false;
  let refused = 0;
  let secret = "";
  const server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (down) {
        refused++;
        res.writeHead(503).end();
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      const signature = String(req.headers[WEBHOOK_HEADERS.signature.toLowerCase()] ?? "");
      received.push({
        deliveryId: String(req.headers[WEBHOOK_HEADERS.delivery.toLowerCase()] ?? ""),
        event: String(req.headers[WEBHOOK_HEADERS.event.toLowerCase()] ?? ""),
        signature,
        body,
        verified: verifyWebhookSignature(signature, body, secret, Math.floor(Date.now() / 1000)),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/hcs`,
    caPem: ca.certPem,
    received,
    get refused() {
      return refused;
    },
    setDown: (d) => {
      down = d;
    },
    setSecret: (s) => {
      secret = s;
    },
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

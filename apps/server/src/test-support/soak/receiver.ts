import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { WEBHOOK_HEADERS } from "@hcs/protocol";
import { verifyWebhookSignature } from "../../lab/webhook-receiver.js";
import { createCertificateAuthority, issueServerCertificate } from "../../tls/certificates.js";

/** One delivery the soak's receiver took: whose, for which job and event, and whether its signature verified. */
export interface SoakDelivery {
  readonly accountId: string;
  readonly jobId: string | null;
  readonly event: string;
  readonly deliveryId: string;
  readonly verified: boolean;
}

export interface SoakReceiver {
  /** The callback URL of an account's jobs (`/hooks/<account id>`: the receiver checks each with its secret). */
  urlFor(accountId: string): string;
  /** PEM of the CA of the receiver's certificate, for the workers' HCS_EXTRA_CA_FILE. */
  readonly caPem: string;
  readonly deliveries: readonly SoakDelivery[];
  setSecret(accountId: string, secret: string): void;
  close(): Promise<void>;
}

/**
 * The soak's webhook receiver on 127.0.0.1 (HTTPS): several accounts, each with its own signing secret, told apart by
 * the path of their callback URL. Keeps a small record of each delivery (never the body).
 */
export async function startSoakReceiver(): Promise<SoakReceiver> {
  const ca = createCertificateAuthority("HCS soak webhook receiver CA");
  const cert = issueServerCertificate(ca, ["127.0.0.1", "localhost"]);
  const secrets = new Map<string, string>();
  const deliveries: SoakDelivery[] = [];
  const server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const accountId = /^\/hooks\/([^/?]+)$/.exec(req.url ?? "")?.[1] ?? "";
      const body = Buffer.concat(chunks).toString("utf8");
      let jobId: string | null = null;
      try {
        jobId = (JSON.parse(body) as { job_id?: string }).job_id ?? null;
      } catch {
        jobId = null;
      }
      const signature = String(req.headers[WEBHOOK_HEADERS.signature.toLowerCase()] ?? "");
      deliveries.push({
        accountId,
        jobId,
        event: String(req.headers[WEBHOOK_HEADERS.event.toLowerCase()] ?? ""),
        deliveryId: String(req.headers[WEBHOOK_HEADERS.delivery.toLowerCase()] ?? ""),
        verified: verifyWebhookSignature(signature, body, secrets.get(accountId) ?? "", Math.floor(Date.now() / 1000)),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urlFor: (accountId) => `${base}/hooks/${accountId}`,
    caPem: ca.certPem,
    deliveries,
    setSecret: (accountId, secret) => void secrets.set(accountId, secret),
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

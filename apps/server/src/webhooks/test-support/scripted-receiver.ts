import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { createCaCertificate, issueCertificate, rsaKeySync } from "../../tls/certificates.js";

/** How a scripted receiver answers one request (it may never answer). */
export type ReceiverScript = (req: IncomingMessage, res: ServerResponse) => void;

export interface ScriptedReceiver {
  readonly url: string;
  /** PEM of the CA that issued the receiver's certificate (one CA per test process). */
  readonly caPem: string;
  /** Webhook requests (POST to the hook path) whose headers arrived. */
  readonly requests: number;
  /**
   * Webhook requests in flight now (headers arrived, connection not closed), and the most ever in flight at once.
   * Counted per request, not per TLS connection: other test processes probe every listening loopback port (the
   * scanner's ports phase reads the socket table), and a probe's TLS handshake is not a delivery.
   */
  readonly active: number;
  readonly peakActive: number;
  /** Response bytes the receiver managed to hand to its sockets (TLS framing included). */
  readonly bytesSent: number;
  close(): Promise<void>;
}

const HOOK_PATH = "/hooks/hcs";

let tls: { certPem: string; keyPem: string; caPem: string } | null = null;

// RSA key generation dominates (seconds for the 3072-bit keys of a real CA): test receivers share one CA with a
// 2048-bit key per test process.
function receiverTls() {
  if (!tls) {
    const notBefore = new Date(Date.now() - 60_000);
    const ca = createCaCertificate(rsaKeySync(2048), {
      commonName: "HCS scripted webhook receiver CA",
      organization: "HCS tests",
      notBefore,
      days: 2,
    });
    const cert = issueCertificate(ca, rsaKeySync(2048), { hosts: ["127.0.0.1", "localhost"], notBefore, days: 2 });
    tls = { certPem: cert.certPem, keyPem: cert.keyPem, caPem: ca.certPem };
  }
  return tls;
}

/** An HTTPS server on 127.0.0.1 that answers webhooks as `script` says and counts its connections. */
export async function startScriptedReceiver(script: ReceiverScript): Promise<ScriptedReceiver> {
  const { certPem, keyPem, caPem } = receiverTls();
  let requests = 0;
  let active = 0;
  let peakActive = 0;
  const sockets: TLSSocket[] = [];
  const server = createServer({ cert: certPem, key: keyPem }, (req, res) => {
    if (req.method === "POST" && req.url === HOOK_PATH) {
      requests++;
      active++;
      peakActive = Math.max(peakActive, active);
      res.on("close", () => {
        active--;
      });
    }
    script(req, res);
  });
  server.on("secureConnection", (socket) => {
    socket.on("error", () => undefined);
    sockets.push(socket);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}${HOOK_PATH}`,
    caPem,
    get requests() {
      return requests;
    },
    get active() {
      return active;
    },
    get peakActive() {
      return peakActive;
    },
    get bytesSent() {
      return sockets.reduce((n, s) => n + s.bytesWritten, 0);
    },
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Answers `status` with an empty body once the request body has arrived. */
export const answer =
  (status: number, headers: Record<string, string> = {}): ReceiverScript =>
  (req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(status, headers).end());
  };

/** Reads the request and never answers (the connection stays open until the client gives up). */
export const hang: ReceiverScript = (req) => {
  req.resume();
};

/** Starts a status line at once and then sends one more header byte every `intervalMs`, forever. */
export const trickleHeaders =
  (intervalMs: number): ReceiverScript =>
  (req) => {
    req.resume();
    const socket = req.socket;
    socket.write("HTTP/1.1 200 OK\r\nX-Slow: ");
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write("a");
    }, intervalMs);
    socket.on("close", () => clearInterval(timer));
  };

/**
 * Answers `status` and streams up to `maxBytes` of body, respecting backpressure (the receiver's own memory stays
 * flat), until the client goes away.
 */
export const endlessBody =
  (status: number, maxBytes: number): ReceiverScript =>
  (req, res) => {
    req.resume();
    const chunk = Buffer.alloc(64 * 1024, "x");
    let sent = 0;
    res.writeHead(status, { "content-type": "text/plain" });
    const pump = () => {
      while (sent < maxBytes && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      if (!res.destroyed) res.end();
    };
    res.on("error", () => undefined);
    pump();
  };

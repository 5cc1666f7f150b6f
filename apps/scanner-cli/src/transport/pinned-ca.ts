import { createHash, X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import { connect, type DetailedPeerCertificate } from "node:tls";
import { CliError } from "../cli/errors.js";

const derToPem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE-----\n${der
    .toString("base64")
    .match(/.{1,64}/g)!
    .join("\n")}\n-----END CERTIFICATE-----\n`;

/**
 * Trust on first contact, but pinned: connects to the server without trusting anything yet, finds in the chain it
 * presents the certificate whose SHA-256 equals the pin from the deploy token, and returns it as PEM. Every later
 * request trusts only that CA (with full chain and host-name checks). A server whose chain lacks the pinned CA is
 * refused: the token was made for another server, or someone is in the middle.
 */
export async function fetchPinnedCa(serverUrl: string, pinSha256: string, timeoutMs = 10_000): Promise<string> {
  const url = new URL(serverUrl);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = Number(url.port || 443);
  const chain = await new Promise<DetailedPeerCertificate>((resolve, reject) => {
    const socket = connect(
      { host, port, rejectUnauthorized: false, ...(isIP(host) ? {} : { servername: host }) },
      () => {
        const peer = socket.getPeerCertificate(true);
        socket.end();
        resolve(peer);
      },
    );
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error("ETIMEDOUT")));
    socket.on("error", (err: NodeJS.ErrnoException) => reject(err));
  }).catch((err: NodeJS.ErrnoException) => {
    throw new CliError(
      "server_unreachable",
      `cannot reach ${url.origin} (${err.code ?? err.message}); is the server running and reachable from this machine?`,
    );
  });
  const seen = new Set<string>();
  for (
    let cert: DetailedPeerCertificate | undefined = chain;
    cert?.raw && !seen.has(cert.fingerprint256);
    cert = cert.issuerCertificate
  ) {
    seen.add(cert.fingerprint256);
    if (createHash("sha256").update(cert.raw).digest("hex") === pinSha256) {
      const pem = derToPem(cert.raw);
      if (!new X509Certificate(pem).ca) break;
      return pem;
    }
  }
  throw new CliError(
    "server_untrusted",
    `${url.origin} does not present the CA pinned in the deploy token (fingerprint ${pinSha256.slice(0, 16)}…): the token belongs to another server, or the connection is intercepted`,
  );
}

import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { httpRequestTo } from "../lab/https-client.js";
import { certificateSha256, formatFingerprint } from "./certificates.js";
import { certificateHosts, ensureSelfManagedTls, loadConfiguredTls } from "./tls-material.js";

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "hcs-tls-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("self-managed TLS", () => {
  it("creates a CA and a server certificate on first start, keys 0600, and reuses them", () => {
    const dir = tmp();
    const first = ensureSelfManagedTls(dir, ["localhost", "127.0.0.1", "hcs.example.org"]);
    expect(first.createdCa).toBe(true);
    for (const f of ["ca.key", "server.key"]) expect(statSync(join(dir, "tls", f)).mode & 0o777).toBe(0o600);
    const ca = new X509Certificate(first.caPem);
    expect(ca.ca).toBe(true);
    const server = new X509Certificate(readFileSync(join(dir, "tls", "server.crt")));
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.subjectAltName).toContain("DNS:localhost");
    expect(server.subjectAltName).toContain("IP Address:127.0.0.1");
    expect(server.subjectAltName).toContain("DNS:hcs.example.org");
    expect(first.caSha256).toBe(certificateSha256(first.caPem));
    expect(formatFingerprint(first.caSha256)).toBe(ca.fingerprint256);

    const second = ensureSelfManagedTls(dir, ["localhost", "127.0.0.1", "hcs.example.org"]);
    expect(second.createdCa).toBe(false);
    expect(second.caSha256).toBe(first.caSha256);
    expect(second.certChainPem).toBe(first.certChainPem);
  });

  it("re-issues only the server certificate when the host list changes or expiry nears", () => {
    const dir = tmp();
    const first = ensureSelfManagedTls(dir, ["localhost"]);
    const moved = ensureSelfManagedTls(dir, ["localhost", "hcs.internal.example"]);
    expect(moved.caSha256).toBe(first.caSha256);
    expect(moved.certChainPem).not.toBe(first.certChainPem);
    const later = ensureSelfManagedTls(
      dir,
      ["localhost", "hcs.internal.example"],
      new Date(Date.now() + 380 * 86_400_000),
    );
    expect(later.certChainPem).not.toBe(moved.certChainPem);
  });

  it("a client that pins the CA can talk to a server using the chain", async () => {
    const dir = tmp();
    const m = ensureSelfManagedTls(dir, certificateHosts("127.0.0.1", "https://127.0.0.1:1"));
    const srv = createServer({ cert: m.certChainPem, key: m.keyPem }, (_q, r) => r.end("ok"));
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const port = (srv.address() as { port: number }).port;
    try {
      expect((await httpRequestTo(`https://127.0.0.1:${port}/`, { ca: m.caPem })).text).toBe("ok");
      expect((await httpRequestTo(`https://localhost:${port}/`, { ca: m.caPem })).text).toBe("ok");
    } finally {
      srv.close();
    }
  });

  it("loads operator-provided certificates and pins the last one of the chain", () => {
    const source = tmp();
    const m = ensureSelfManagedTls(source, ["localhost"]);
    const configured = loadConfiguredTls(join(source, "tls", "server.crt"), join(source, "tls", "server.key"));
    expect(configured.source).toBe("configured");
    expect(configured.caSha256).toBe(certificateSha256(readFileSync(join(source, "tls", "server.crt"), "utf8")));
    expect(m.caSha256).not.toBe(configured.caSha256);
  });
});

import { connect, type SecureVersion } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

/** Handshakes with a client that offers only `ciphers` at `version`; the negotiated suite, or the failure. */
function handshake(
  version: SecureVersion,
  ciphers: string,
): Promise<{ ok: true; cipher: string } | { ok: false; error: string }> {
  const url = new URL(t.url);
  return new Promise((resolve) => {
    const socket = connect({
      host: url.hostname,
      port: Number(url.port),
      ca: t.ca,
      servername: "localhost",
      minVersion: version,
      maxVersion: version,
      ciphers,
    });
    socket.once("secureConnect", () => {
      resolve({ ok: true, cipher: socket.getCipher().standardName });
      socket.destroy();
    });
    socket.once("error", (err: Error & { code?: string }) => resolve({ ok: false, error: err.code ?? err.message }));
  });
}

describe("the HTTPS listener's TLS suites (Mozilla intermediate: forward secrecy and AEAD only)", () => {
  it.each([
    ["AES128-SHA", "static RSA, CBC, SHA-1"],
    ["AES256-SHA", "static RSA, CBC, SHA-1"],
    ["AES128-GCM-SHA256", "static RSA (no forward secrecy), even with AEAD"],
    ["AES256-GCM-SHA384", "static RSA (no forward secrecy), even with AEAD"],
    ["AES128-CCM8", "static RSA, CCM8"],
    ["ECDHE-RSA-AES128-SHA", "forward secret but CBC with SHA-1"],
    ["ECDHE-RSA-AES256-SHA384", "forward secret but CBC"],
  ])("refuses a TLS 1.2 client offering only %s (%s)", async (suite) => {
    const r = await handshake("TLSv1.2", suite);
    expect(r.ok, JSON.stringify(r)).toBe(false);
  });

  it.each([
    ["ECDHE-RSA-AES128-GCM-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"],
    ["ECDHE-RSA-AES256-GCM-SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"],
    ["ECDHE-RSA-CHACHA20-POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"],
  ])("accepts TLS 1.2 with %s", async (suite, standardName) => {
    expect(await handshake("TLSv1.2", suite)).toEqual({ ok: true, cipher: standardName });
  });

  it("negotiates TLS 1.3 with a client's defaults", async () => {
    const r = await handshake("TLSv1.3", "DEFAULT");
    expect(r.ok).toBe(true);
  });

  it("refuses a client older than TLS 1.2", async () => {
    const r = await handshake("TLSv1.1", "DEFAULT:@SECLEVEL=0");
    expect(r.ok).toBe(false);
  });
});

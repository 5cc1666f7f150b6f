import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCertificateAuthority, issueServerCertificate } from "../../tls/certificates.js";
import { catalogueDisagreement } from "../finding-catalogue.js";
import { enumerateSuites } from "../site/suite-enumeration.js";
import { evaluateCipherSuites } from "../site/tls-ciphers-check.js";
import { createNodeTlsProbe } from "./tls-probe.js";

// Test-local TLS servers on 127.0.0.1 only, configured the way the suites under test need.
const HOST = "127.0.0.1";
const signal = new AbortController().signal;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, HOST, () => resolve((server.address() as AddressInfo).port)));
}

describe("suite enumeration over real handshakes (node:tls both ends)", () => {
  const ca = createCertificateAuthority("Suite test CA");
  const cert = issueServerCertificate(ca, ["www.suites.test"]);
  const servers: Server[] = [];
  const ports: Record<string, number> = {};
  beforeAll(async () => {
    const start = async (name: string, options: Parameters<typeof createServer>[0]) => {
      const server = createServer({ key: cert.keyPem, cert: cert.certPem, ...options }, (s) => s.end());
      server.on("tlsClientError", () => {});
      servers.push(server);
      ports[name] = await listen(server);
    };
    // A 2010s appliance: static RSA with AES-CBC only, TLS 1.0 to 1.2.
    await start("rsaCbc", {
      minVersion: "TLSv1",
      maxVersion: "TLSv1.2",
      ciphers: "AES128-SHA:AES256-SHA:AES128-SHA256:@SECLEVEL=0",
    });
    // A misconfigured server that still takes NULL and anonymous suites next to a normal one.
    await start("nullAnon", {
      minVersion: "TLSv1.2",
      maxVersion: "TLSv1.2",
      ciphers: "ECDHE-RSA-AES128-GCM-SHA256:NULL-SHA256:AECDH-AES128-SHA:@SECLEVEL=0",
    });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  const probe = createNodeTlsProbe({ timeoutMs: 2_000 });
  const enumerate = (name: string, versions: Parameters<typeof enumerateSuites>[0]["versions"]) =>
    enumerateSuites({ tls: probe, address: HOST, port: ports[name]!, servername: "www.suites.test", versions, signal });

  it("knows which suites this client can offer (OpenSSL 3 without weak ciphers has no RC4 or 3DES)", () => {
    expect(probe.canOffer("ECDHE-RSA-AES128-GCM-SHA256")).toBe(true);
    expect(probe.canOffer("AES128-SHA")).toBe(true);
    expect(probe.canOffer("NULL-SHA256")).toBe(true);
    expect(probe.canOffer("TLS_AES_128_CCM_SHA256")).toBe(true);
    expect(probe.canOffer("NOT-A-SUITE")).toBe(false);
  });

  it("finds exactly the static-RSA CBC suites an old appliance accepts, per version", async () => {
    const result = await enumerate("rsaCbc", ["TLSv1", "TLSv1.1", "TLSv1.2"]);
    expect(result.byVersion).toEqual({
      TLSv1: { accepted: ["TLS_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_256_CBC_SHA"], complete: true },
      "TLSv1.1": { accepted: ["TLS_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_256_CBC_SHA"], complete: true },
      "TLSv1.2": {
        accepted: ["TLS_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_256_CBC_SHA", "TLS_RSA_WITH_AES_128_CBC_SHA256"],
        complete: true,
      },
    });
    const findings = evaluateCipherSuites("www.suites.test", 443, result);
    expect(findings.map((f) => f.check_id)).toEqual(["app.tls_ciphers.no_forward_secrecy", "app.tls_ciphers.cbc_mode"]);
  });

  it("catches NULL and anonymous suites and grades them critical", async () => {
    const result = await enumerate("nullAnon", ["TLSv1.2"]);
    expect(result.byVersion["TLSv1.2"]).toEqual({
      accepted: [
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_RSA_WITH_NULL_SHA256",
        "TLS_ECDH_anon_WITH_AES_128_CBC_SHA",
      ],
      complete: true,
    });
    const findings = evaluateCipherSuites("www.suites.test", 443, result);
    const insecure = findings.find((f) => f.check_id === "app.tls_ciphers.insecure");
    expect(insecure?.severity).toBe("critical");
    expect(insecure?.evidence).toMatchObject({
      suites: { "TLS 1.2": ["TLS_RSA_WITH_NULL_SHA256", "TLS_ECDH_anon_WITH_AES_128_CBC_SHA"] },
    });
    for (const f of findings) expect(catalogueDisagreement(f)).toBeNull();
  });

  it("reports a closed port as a connection failure, not as a refused suite", async () => {
    const spare = createServer();
    const closed = await listen(spare);
    await new Promise((r) => spare.close(r));
    const outcome = await probe.offerSuites({
      address: HOST,
      port: closed,
      servername: "www.suites.test",
      version: "TLSv1.2",
      suites: ["ECDHE-RSA-AES128-GCM-SHA256"],
      signal,
    });
    expect(outcome).toMatchObject({ ok: false, code: "connection_refused" });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startZoneDnsServer, type ZoneDnsServer } from "../sample-practices/dns-server.js";
import { EXTERNAL_CHECKS } from "./checks.js";
import { createExternalScanIO } from "./io/create-io.js";
import { runExternalScan } from "./run-external-scan.js";
import { type SilentServer, startSilentDnsServer, startSilentTcpListener } from "./test-support/silent-servers.js";

// Real IO against servers this file starts on loopback: 127.0.0.1 for DNS, 127.0.201.1 and 127.0.202.1 for sites
// (addresses no other test file uses: each needs ports 80 and 443 to itself).
const STUCK = "127.0.201.1";
const PRIVATE = "127.0.202.1";
const SLACK_MS = 750;

const statusOf = (result: Awaited<ReturnType<typeof runExternalScan>>) =>
  Object.fromEntries(result.checks.map((c) => [c.id, c.status]));

describe("a DNS server that never answers", () => {
  let silent: SilentServer;
  beforeAll(async () => {
    silent = await startSilentDnsServer();
  });
  afterAll(() => silent.stop());

  it("ends every check with a timeout inside the budget and says so in findings", async () => {
    const io = createExternalScanIO({
      dnsServers: [{ host: silent.host, port: silent.port }],
      timeouts: { dnsMs: 500 },
    });
    const started = performance.now();
    const result = await runExternalScan(
      { domain: "quiet-clinic.test", website: "https://www.quiet-clinic.test/" },
      io,
      {
        allowPrivateTargets: true,
        timeoutMs: 3_000,
      },
    );
    expect(performance.now() - started).toBeLessThan(3_000 + SLACK_MS);
    expect(new Set(Object.values(statusOf(result)))).toEqual(new Set(["timeout"]));
    expect(result.categories).toEqual([]);
    expect(result.findings.map((f) => f.check_id)).toEqual(EXTERNAL_CHECKS.map((c) => `${c.id}.timeout`));
    expect(result.findings.find((f) => f.check_id === "email.spf.timeout")?.title).toBe(
      "SPF record not assessed: no answer in time",
    );
    expect(silent.received()).toBeGreaterThan(0);
  });
});

describe("a site that accepts TCP and never responds", () => {
  let dns: ZoneDnsServer;
  let https: SilentServer;
  let http: SilentServer;
  beforeAll(async () => {
    dns = await startZoneDnsServer({
      origins: ["stuck-clinic.test"],
      records: [
        { name: "stuck-clinic.test", type: "A", address: STUCK },
        { name: "www.stuck-clinic.test", type: "A", address: STUCK },
        { name: "stuck-clinic.test", type: "TXT", text: "v=spf1 -all" },
        { name: "_dmarc.stuck-clinic.test", type: "TXT", text: "v=DMARC1; p=reject; rua=mailto:d@stuck-clinic.test" },
      ],
    });
    https = await startSilentTcpListener(STUCK, 443);
    http = await startSilentTcpListener(STUCK, 80);
  });
  afterAll(async () => {
    await Promise.all([dns.stop(), https.stop(), http.stop()]);
  });
  const target = { domain: "stuck-clinic.test", website: "https://www.stuck-clinic.test/" };

  it("reports the site's checks as timed out, still assesses email, and finishes within the budget", async () => {
    const io = createExternalScanIO({
      dnsServers: [{ host: dns.host, port: dns.port }],
      timeouts: { tlsHandshakeMs: 600, httpMs: 800, connectMs: 500 },
    });
    const started = performance.now();
    const result = await runExternalScan(target, io, { allowPrivateTargets: true, timeoutMs: 5_000 });
    expect(performance.now() - started).toBeLessThan(5_000 + SLACK_MS);
    const status = statusOf(result);
    for (const id of [
      "app.https",
      "app.tls_versions",
      "app.certificate",
      "app.security_headers",
      "privacy.trackers",
      "privacy.notice",
    ]) {
      expect([id, status[id]]).toEqual([id, "timeout"]);
    }
    expect(status["email.dmarc"]).toBe("ok");
    expect(status["app.exposed_services"]).toBe("ok");
    expect(result.categories).toEqual(["email_security", "application_security"]);
    expect(result.findings.map((f) => f.check_id)).toContain("app.https.timeout");
    expect(https.received()).toBeGreaterThan(0);
  });

  it("is cut off by the scan budget even when the IO's own timeouts are longer", async () => {
    const io = createExternalScanIO({ dnsServers: [{ host: dns.host, port: dns.port }] });
    const started = performance.now();
    const result = await runExternalScan(target, io, { allowPrivateTargets: true, timeoutMs: 1_500 });
    expect(performance.now() - started).toBeLessThan(1_500 + SLACK_MS);
    expect(result.checks.find((c) => c.id === "app.https")).toMatchObject({
      status: "timeout",
      detail: "the scan's time budget ran out",
    });
  });
});

describe("private targets", () => {
  let dns: ZoneDnsServer;
  const listeners: SilentServer[] = [];
  beforeAll(async () => {
    dns = await startZoneDnsServer({
      origins: ["private-clinic.test"],
      records: [
        { name: "private-clinic.test", type: "A", address: PRIVATE },
        { name: "www.private-clinic.test", type: "A", address: PRIVATE },
        { name: "private-clinic.test", type: "TXT", text: "v=spf1 -all" },
      ],
    });
    for (const port of [443, 80, 3389]) listeners.push(await startSilentTcpListener(PRIVATE, port));
  });
  afterAll(async () => {
    await Promise.all([dns.stop(), ...listeners.map((l) => l.stop())]);
  });
  const connections = () => listeners.reduce((n, l) => n + l.received(), 0);
  const io = () =>
    createExternalScanIO({
      dnsServers: [{ host: dns.host, port: dns.port }],
      timeouts: { tlsHandshakeMs: 300, httpMs: 300, connectMs: 300 },
    });

  it("are refused without a single connection when private targets are not allowed", async () => {
    const result = await runExternalScan(
      { domain: "private-clinic.test", website: "https://www.private-clinic.test/" },
      io(),
      {
        allowPrivateTargets: false,
        timeoutMs: 5_000,
      },
    );
    const status = statusOf(result);
    const siteChecks = EXTERNAL_CHECKS.filter((c) => c.subject === "site").map((c) => c.id);
    for (const id of siteChecks) expect([id, status[id]]).toEqual([id, "refused"]);
    expect(status["email.spf"]).toBe("ok");
    expect(result.categories).toEqual(["email_security"]);
    const refusal = result.findings.find((f) => f.check_id === "app.https.refused");
    expect(refusal?.detail).toContain(PRIVATE);
    expect(connections()).toBe(0);
  });

  it("refuses an IP-literal website without asking DNS or connecting", async () => {
    const result = await runExternalScan({ domain: "private-clinic.test", website: `https://${PRIVATE}/` }, io(), {
      allowPrivateTargets: false,
      timeoutMs: 5_000,
    });
    expect(result.checks.find((c) => c.id === "app.exposed_services")?.status).toBe("refused");
    expect(dns.queries.some((q) => q.name === PRIVATE)).toBe(false);
    expect(connections()).toBe(0);
  });

  it("are scanned when allowed (the same listeners do count connections)", async () => {
    await runExternalScan({ domain: "private-clinic.test", website: "https://www.private-clinic.test/" }, io(), {
      allowPrivateTargets: true,
      timeoutMs: 5_000,
    });
    expect(connections()).toBeGreaterThan(0);
    expect(listeners.find((l) => l.port === 3389)?.received()).toBe(1);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ScoreResult, scorePractice } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkFactsOf,
  createExternalScanIO,
  type ExternalScanResult,
  externalScoringSubject,
  runExternalScan,
} from "../../external-scan/index.js";
import { createNodeTcpConnect } from "../../external-scan/io/tcp-connect.js";
import { RISKY_SERVICES } from "../../external-scan/site/exposed-services-check.js";
import { startZoneDnsServer, type ZoneDnsServer } from "../../sample-practices/index.js";
import { MAIL_PROVIDER_ORIGINS, mailProviderRecords } from "../../sample-practices/practices/mail-providers.js";
import { createSampleCa, issueSampleCertificate, rsaKey, SAMPLE_REVOCATION } from "../../sample-practices/sample-ca.js";
import type { ZoneRecord } from "../../sample-practices/zone.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";
import { PORTAL_CSP } from "./security-headers.js";

/**
 * The portal scanned by the server's own external scan, as a clinic's site is: the real scan with its real IO
 * (DNS, TLS probes, HTTP, TCP connects) against a real `hcs-server` listening on its own loopback address, then
 * scored by the scoring the API uses. Everything stays on 127.0.0.0/8: the host name resolves only through the
 * lab DNS server below, and the certificate comes from a sample CA created for this run (see docs/portal.md,
 * "The portal's own external scan", for what this can and cannot show).
 */

/** Its own loopback address: nothing else in the repository listens on 127.0.63.x. */
const ADDRESS = "127.0.63.1";
/** An address beside it that nothing of this test listens on (services bound to all addresses answer there). */
const NEIGHBOUR = "127.0.63.250";
const DOMAIN = "hcs-portal.test";
const HOST = `portal.${DOMAIN}`;
const PORTAL_URL = `https://${HOST}/portal`;
const DAY_MS = 86_400_000;

/**
 * The fixture: the DNS zone a well-run SaaS operator publishes for the portal's domain. The web host points at the
 * server; mail goes to a hosted provider (the sample mail provider's zone, `mailhost.test`) authorised by SPF with a
 * hard fail; DMARC rejects with strict alignment and asks for aggregate reports; one 2048-bit DKIM key; MTA-STS and
 * TLS reporting announced. This is the posture the test asserts the scan accepts, not something the server makes.
 */
function portalZone(dkimPublicKeyBase64: string): ZoneRecord[] {
  return [
    { name: DOMAIN, type: "A", address: ADDRESS },
    { name: HOST, type: "A", address: ADDRESS },
    { name: DOMAIN, type: "MX", exchange: "mx1.mailhost.test", priority: 10 },
    { name: DOMAIN, type: "MX", exchange: "mx2.mailhost.test", priority: 20 },
    { name: DOMAIN, type: "TXT", text: "v=spf1 include:_spf.mailhost.test -all" },
    {
      name: `_dmarc.${DOMAIN}`,
      type: "TXT",
      text: `v=DMARC1; p=reject; sp=reject; adkim=s; aspf=s; rua=mailto:dmarc-reports@${DOMAIN}`,
    },
    { name: `selector1._domainkey.${DOMAIN}`, type: "TXT", text: `v=DKIM1; k=rsa; p=${dkimPublicKeyBase64}` },
    { name: `_mta-sts.${DOMAIN}`, type: "TXT", text: "v=STSv1; id=20261101T000000" },
    { name: `_smtp._tls.${DOMAIN}`, type: "TXT", text: `v=TLSRPTv1; rua=mailto:tls-reports@${DOMAIN}` },
  ];
}

/** Risky ports open on an address nobody here uses: a machine's service bound to every address, not the portal's. */
async function portsOpenOnEveryLoopbackAddress(): Promise<Set<number>> {
  const tcp = createNodeTcpConnect({ timeoutMs: 500 });
  const signal = new AbortController().signal;
  const open = await Promise.all(
    RISKY_SERVICES.map(async (s) =>
      (await tcp.connect({ address: NEIGHBOUR, port: s.port, signal })).state === "open" ? s.port : null,
    ),
  );
  return new Set(open.filter((p): p is number => p !== null));
}

/** The portal's lab: its DNS zone on the sample DNS server, a CA standing in for a public one, its certificate. */
interface PortalLab {
  readonly dir: string;
  readonly dns: ZoneDnsServer;
  readonly caPem: string;
  readonly machinePorts: Set<number>;
}

async function startPortalLab(): Promise<PortalLab> {
  const dir = mkdtempSync(join(tmpdir(), "hcs-portal-scan-"));
  const machinePorts = await portsOpenOnEveryLoopbackAddress();
  const now = new Date();
  const [ca, dkim] = await Promise.all([
    createSampleCa("HCS Portal Scan CA", new Date(now.getTime() - 30 * DAY_MS)),
    rsaKey(2048),
  ]);
  // As a public CA issues it: the portal's names, 90 days, OCSP and CRL pointers.
  const certificate = await issueSampleCertificate(ca, [HOST, DOMAIN], new Date(now.getTime() - DAY_MS), 90, {
    revocation: SAMPLE_REVOCATION,
  });
  writeFileSync(join(dir, "portal.crt"), certificate.certPem);
  writeFileSync(join(dir, "portal.key"), certificate.keyPem, { mode: 0o600 });
  const dns = await startZoneDnsServer(
    {
      origins: [DOMAIN, ...MAIL_PROVIDER_ORIGINS],
      records: [...portalZone(dkim.publicKeyDer.toString("base64")), ...mailProviderRecords()],
    },
    { host: "127.0.0.1" },
  );
  return { dir, dns, caPem: ca.certPem, machinePorts };
}

interface PortalScan {
  readonly server: TestServer;
  readonly result: ExternalScanResult;
  readonly score: ScoreResult;
}

/**
 * Starts `hcs-server` as an operator deploys it — HTTPS on 443 of the portal's address with its own certificate,
 * its public URL on the portal's host name, plus `env` — and runs the external scan of the portal against it, with
 * the real IO pointed at the lab's DNS server and trusting the lab's CA. Prints the score, grade and findings.
 */
async function scanPortal(lab: PortalLab, env: Record<string, string> = {}): Promise<PortalScan> {
  const server = await startTestServer({
    env: {
      HCS_HOST: ADDRESS,
      HCS_PORT: "443",
      HCS_TLS_CERT: join(lab.dir, "portal.crt"),
      HCS_TLS_KEY: join(lab.dir, "portal.key"),
      HCS_PUBLIC_URL: `https://${HOST}`,
      HCS_LOG_LEVEL: "warn",
      ...env,
    },
  });
  const io = createExternalScanIO({
    dnsServers: [{ host: lab.dns.host, port: lab.dns.port }],
    trustedCaPem: [lab.caPem],
  });
  const scanned = await runExternalScan({ domain: DOMAIN, website: PORTAL_URL }, io, {
    allowPrivateTargets: true,
    timeoutMs: 45_000,
  });
  const machineFinding = (id: string) =>
    RISKY_SERVICES.some((s) => lab.machinePorts.has(s.port) && id === `app.exposed_services.${s.service}`);
  const result = { ...scanned, findings: scanned.findings.filter((f) => !machineFinding(f.check_id)) };
  const score = scorePractice([externalScoringSubject(result)])!;
  // What a reader of the test output wants first: the portal's score, grade and every finding.
  console.log(
    JSON.stringify(
      {
        server_env: env,
        target: result.target,
        compliance_score: score.compliance_score,
        grade: score.grade,
        categories: Object.fromEntries(Object.entries(score.categories).map(([c, s]) => [c, s?.score])),
        caps_applied: score.caps_applied,
        checks_not_ok: result.checks.filter((c) => c.status !== "ok"),
        findings: result.findings.map((f) => ({ check_id: f.check_id, severity: f.severity, title: f.title })),
        ignored_machine_ports: [...lab.machinePorts],
      },
      null,
      2,
    ),
  );
  return { server, result, score };
}

describe("the portal scanned by its own external scan", () => {
  let lab: PortalLab;
  let scan: PortalScan;
  let result: ExternalScanResult;
  let score: ScoreResult;
  let dns: ZoneDnsServer;
  let defaultServerClosed = false;

  beforeAll(async () => {
    lab = await startPortalLab();
    dns = lab.dns;
    // The default deployment: no plain-HTTP listener (HCS_HTTP_PORT unset), so port 80 is closed.
    scan = await scanPortal(lab);
    ({ result, score } = scan);
  }, 120_000);

  afterAll(async () => {
    if (!defaultServerClosed) await scan?.server.close();
    await lab?.dns.stop();
    if (lab) rmSync(lab.dir, { recursive: true, force: true });
  });

  it("reaches the portal on its host name through the lab zone and assesses all three external categories", () => {
    expect(result.target).toEqual({ domain: DOMAIN, website: PORTAL_URL });
    expect(result.checks.filter((c) => c.status !== "ok")).toEqual([]);
    expect(result.categories).toEqual(["email_security", "application_security", "privacy_compliance"]);
    expect(dns.queries.some((q) => q.name === HOST && q.type === "A")).toBe(true);
  });

  it("judges the real listener: TLS 1.2 and 1.3 only, the lab CA's certificate, the portal's headers and cookie", () => {
    const facts = (id: string) => checkFactsOf(result, id) as Record<string, unknown>;
    expect(facts("app.https")).toMatchObject({ final_url: `https://${HOST}/portal/sign-in`, status: 200 });
    expect(facts("app.http_redirect")).toEqual({ http: "not served", error: "connection_refused" });
    expect(facts("app.tls_versions")).toEqual({ offered: ["TLS 1.2", "TLS 1.3"], undetermined: [] });
    expect(facts("app.certificate")).toMatchObject({ subject_cn: HOST, authorized: true });
    expect(facts("app.security_headers")["content-security-policy"]).toBe(PORTAL_CSP);
    expect(facts("app.cookies").cookies_seen).toEqual(["__Host-hcs_pre"]);
    expect(facts("privacy.notice")).toEqual({ npp_links: [], privacy_links: ["/portal/privacy"] });
  });

  it("gets an A from the scoring the API uses; the one finding above info is the NPP a covered entity owes", () => {
    // HCS serves covered entities and is not one (it has no patients): it has no Notice of Privacy Practices of its
    // own to post (45 CFR 164.520 binds covered entities). The portal links its privacy policy, and the scan,
    // which cannot know whose site it reads, asks for the NPP as it asks every clinic. Anything else fails here.
    expect(result.findings.filter((f) => f.severity !== "info").map((f) => [f.check_id, f.severity])).toEqual([
      ["privacy.notice.npp_missing", "low"],
    ]);
    expect(score.caps_applied).toEqual([]);
    expect(score.grade).toBe("A");
  });

  // Runs after the tests above (vitest keeps declaration order): the default server makes way on the same address.
  describe("with the optional plain-HTTP listener on port 80 (HCS_HTTP_PORT=80)", () => {
    let plain: PortalScan;

    beforeAll(async () => {
      await scan.server.close();
      defaultServerClosed = true;
      plain = await scanPortal(lab, { HCS_HTTP_PORT: "80" });
    }, 120_000);
    afterAll(() => plain?.server.close());

    it("is told plain HTTP is refused (403 https_required), not redirected: a medium finding, still an A", () => {
      // The listener refuses rather than redirects on purpose (docs/security.md): an API client that sent its key in
      // cleartext must fail loudly, not be sent on. The scan, judging a website, asks for a redirect.
      expect(checkFactsOf(plain.result, "app.http_redirect")).toEqual({
        http: "served",
        chain: [{ url: `http://${HOST}/`, status: 403 }],
      });
      expect(plain.result.findings.filter((f) => f.severity !== "info").map((f) => [f.check_id, f.severity])).toEqual([
        ["app.http_redirect.missing", "medium"],
        ["privacy.notice.npp_missing", "low"],
      ]);
      expect(plain.score.grade).toBe("A");
    });
  });
});

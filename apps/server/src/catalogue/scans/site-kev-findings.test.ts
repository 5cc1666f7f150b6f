import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BreachProbabilitySchema,
  FindingsPageSchema,
  type GradeRecord,
  GradeRecordSchema,
  JobSchema,
  ScanDispatchAcceptanceSchema,
  ThreatReportSchema,
} from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SamplePractices, samplePracticesEnv, startSamplePractices } from "../../sample-practices/index.js";
import { importKev } from "../../services/intel/feed-imports.js";
import { accountWithKey, addSamplePractices } from "../../test-support/fixtures.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { sharedDataFile } from "../../test-support/shared-data.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

// KEV matches on the versions a practice's public site discloses become graded findings on the external side of
// the grade (docs/intelligence.md §3, docs/scoring.md §5.1): at scan time, and again at every KEV import. The site
// is the Maple Street Pediatrics sample practice on loopback, whose Server header says nginx/1.24.0.
const KEV = sharedDataFile("cisa-kev/known_exploited_vulnerabilities.json", "CISA KEV catalogue");
const SITE_KEV = "app.server_disclosure.known_exploited_vulnerability";
const runPg = await shouldRunPostgres();

let samples: SamplePractices;
let tmp: string;
beforeAll(async () => {
  samples = await startSamplePractices({ loopbackPrefix: "127.0.31" });
  tmp = mkdtempSync(join(tmpdir(), "hcs-site-kev-"));
}, 60_000);
afterAll(async () => {
  await samples?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const day = (from: Date, days: number) => new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The real catalogue (which lists no nginx entry) plus one entry invented for this test in the catalogue's format
 * — CVE-2099-…, labelled so — whose description states `range`; its due date has passed and CISA "knows" of
 * ransomware use, so a confirmed match is critical and caps the grade.
 */
function catalogueWith(range: string, version: string, now: Date) {
  const kev = JSON.parse(readFileSync(KEV!, "utf8"));
  kev.vulnerabilities.push({
    cveID: "CVE-2099-0424",
    vendorProject: "F5",
    product: "NGINX",
    vulnerabilityName: "INVENTED FOR AN HCS TEST: nginx HTTP/2 out-of-bounds write",
    dateAdded: day(now, -60),
    shortDescription: `nginx ${range} contains an invented out-of-bounds write (not a real catalogue entry).`,
    requiredAction: "Apply updates per vendor instructions.",
    dueDate: day(now, -39),
    knownRansomwareCampaignUse: "Known",
    notes: "Invented for an HCS test.",
    cwes: ["CWE-787"],
  });
  kev.count = kev.vulnerabilities.length;
  kev.catalogVersion = version;
  const text = JSON.stringify(kev);
  return { source: `test:${version}`, text, sha256: createHash("sha256").update(text).digest("hex") };
}

function siteKevSuite(engine: "sqlite" | "postgres") {
  describe.skipIf(!KEV)(`KEV matches on a site's disclosed versions are graded (${engine}, over HTTPS)`, () => {
    let t: TestServer;
    let owner: Awaited<ReturnType<typeof accountWithKey>>;
    const maple = () => samples.practices.find((p) => p.name === "Maple Street Pediatrics")!;
    beforeAll(async () => {
      t = await startTestServer({ engine, worker: true, env: samplePracticesEnv(samples, tmp) });
      owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 5_000 });
      await addSamplePractices(t.server.deps, [maple()], owner.accountId);
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    const get = (path: string) => t.request(path, { headers: { "X-API-Key": owner.apiKey } });
    const grade = async (): Promise<GradeRecord> => {
      const res = await get(`/v1/a2a/grade/${maple().npi}`);
      expect(res.status, res.text).toBe(200);
      return GradeRecordSchema.parse(res.json);
    };
    const siteKevFindings = async () => {
      const res = await get(`/v1/a2a/findings/${maple().npi}?source=external&limit=200`);
      expect(res.status, res.text).toBe(200);
      return FindingsPageSchema.parse(res.json).findings.filter((f) => f.check_id === SITE_KEV);
    };
    const scan = async () => {
      const res = await t.request("/v1/a2a/scans/dispatch", {
        method: "POST",
        headers: { "X-API-Key": owner.apiKey },
        body: { npi: maple().npi, scan_type: "full" },
      });
      expect(res.status, res.text).toBe(202);
      const { poll_url } = ScanDispatchAcceptanceSchema.parse(res.json);
      const end = Date.now() + 60_000;
      for (;;) {
        const job = JobSchema.parse((await get(poll_url)).json);
        if (job.status === "completed" || job.status === "failed") {
          expect(job.status, JSON.stringify(job.error)).toBe("completed");
          return job.result!;
        }
        if (Date.now() > end) throw new Error(`job still ${job.status}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    it("the real catalogue lists no nginx, and an entry whose range shows 1.24.0 fixed is no match at all", async () => {
      await importKev(t.server.deps, catalogueWith("before 1.0.0", "2025.08.25-test.0", t.server.deps.now()));
      const result = await scan();
      expect(result.findings.map((f) => f.check_id)).toContain("app.server_disclosure.version");
      // The invented entry's range (before 1.0.0) shows 1.24.0 fixed: no match is claimed, not even product-only.
      expect(result.findings.filter((f) => f.check_id === SITE_KEV)).toEqual([]);
      const threats = ThreatReportSchema.parse((await get(`/v1/a2a/threats/${maple().npi}`)).json);
      expect(threats.inventory.disclosed_by_public_servers).toBe(1);
      expect(threats.matches).toEqual([]);
      expect(result.caps_applied.map((c) => c.id)).not.toContain("known_exploited_past_due");
    }, 90_000);

    let before: GradeRecord;
    it("an import whose entry states a range holding 1.24.0 adds the graded finding and regrades at once", async () => {
      before = await grade();
      const report = await importKev(
        t.server.deps,
        catalogueWith("before 1.25.4", "2025.08.25-test.1", t.server.deps.now()),
      );
      expect(report.detail).toMatchObject({ sites_reevaluated: 1, entries_with_upper_bound: 18 });
      const [finding, ...others] = await siteKevFindings();
      expect(others).toEqual([]);
      expect(finding).toMatchObject({
        id: `${SITE_KEV}:CVE-2099-0424@www.maple-pediatrics.test/nginx`,
        source: "external",
        category: "application_security",
        severity: "critical",
        grade_cap: "known_exploited_past_due",
        host: "www.maple-pediatrics.test",
        evidence: {
          cve: "CVE-2099-0424",
          software: "nginx",
          version: "1.24.0",
          seen_on: "site:www.maple-pediatrics.test",
          via: "server_banner",
          version_match: "affected",
          affected: ["before 1.25.4"],
          known_ransomware_use: true,
          kev_catalog_version: "2025.08.25-test.1",
        },
      });
      const after = await grade();
      expect(after.caps_applied.map((c) => c.id)).toContain("known_exploited_past_due");
      expect(after.compliance_score).toBeLessThanOrEqual(79);
      expect(after.categories.application_security!.score).toBe(
        Math.max(0, before.categories.application_security!.score - 40),
      );
      expect(after.coverage.internal.status).toBe("none");
      // The threats report shows the same match as version-confirmed, where it was seen.
      const threats = ThreatReportSchema.parse((await get(`/v1/a2a/threats/${maple().npi}`)).json);
      expect(threats.matches).toEqual([
        expect.objectContaining({
          cve: "CVE-2099-0424",
          software: "nginx",
          version: "1.24.0",
          seen_on: "site:www.maple-pediatrics.test",
          version_match: "affected",
        }),
      ]);
      // And the breach-probability model counts it as an unpatched KEV match.
      const p = await t.request("/api/a2a", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-API-Key": owner.apiKey },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "hipaa.breach_probability",
          params: { npi: maple().npi },
        }),
      });
      const kev = BreachProbabilitySchema.parse(p.json.result).factors.find((f) => f.id === "kev_unpatched")!;
      expect(kev.present).toBe(true);
      expect(kev.evidence.map((e) => e.finding_id)).toEqual([finding!.id]);
    });

    it("a new scan finds it again at scan time; an import whose range shows 1.24.0 fixed resolves it", async () => {
      const rescan = await scan();
      expect(rescan.findings.filter((f) => f.check_id === SITE_KEV).map((f) => f.id)).toEqual([
        `${SITE_KEV}:CVE-2099-0424@www.maple-pediatrics.test/nginx`,
      ]);
      expect(rescan.caps_applied.map((c) => c.id)).toContain("known_exploited_past_due");
      const history = async () =>
        Number(
          (
            await t.server.deps.store.db
              .selectFrom("grades")
              .select((e) => e.fn.countAll<number>().as("n"))
              .where("npi", "=", maple().npi)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const graded = await history();
      // CISA's entry now says the fix is 1.24.0: the site's version shows it fixed.
      const fixed = await importKev(
        t.server.deps,
        catalogueWith("before 1.24.0", "2025.08.25-test.2", t.server.deps.now()),
      );
      expect(fixed.detail).toMatchObject({ sites_reevaluated: 1 });
      expect(await siteKevFindings()).toEqual([]);
      const recovered = await grade();
      expect(recovered.caps_applied.map((c) => c.id)).not.toContain("known_exploited_past_due");
      expect(recovered.categories.application_security!.score).toBe(before.categories.application_security!.score);
      expect(await history()).toBe(graded + 1);
      // The same catalogue again changes nothing, and a changed catalogue that changes no verdict adds no grade.
      await importKev(t.server.deps, catalogueWith("before 1.24.0", "2025.08.25-test.2", t.server.deps.now()));
      await importKev(t.server.deps, catalogueWith("before 1.23.0", "2025.08.25-test.3", t.server.deps.now()));
      expect(await history()).toBe(graded + 1);
    }, 90_000);
  });
}

siteKevSuite("sqlite");
describe.skipIf(!runPg)("postgres", () => siteKevSuite("postgres"));

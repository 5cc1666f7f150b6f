import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FindingsPageSchema, GradeRecordSchema, JobSchema, SEVERITIES, type Severity } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDateTime } from "../../reports/format.js";
import { type SamplePractices, samplePracticesEnv, startSamplePractices } from "../../sample-practices/index.js";
import { addPractice } from "../../services/practices.js";
import { enrolledPracticeFor } from "../../test-support/enrolled-practice.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import type { PortalClient } from "../../test-support/portal-client.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { scanDocumentAbout } from "../../test-support/scan-documents.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * One practice, one grade: a report shows one assessment, stated in the words the API and the portal use for it
 * (docs/report.md#what-it-holds, "One moment"). Here a practice has external (a full scan of a sample practice on
 * loopback), internal (a scanner upload) and administrative (an SRA) data. The report of a scan — HTML, and the PDF's
 * text read by poppler's pdftotext — is read beside what the API and the portal answer at the same moment: REST grade,
 * JSON-RPC hipaa.grade, every open finding (hipaa.findings) and the portal's dashboard. They state the same score,
 * grade, counts and coverage; a report whose scan has been overtaken by a newer grade says which it shows, and states
 * the newer one as they do; and the report never contradicts itself.
 */

const runPg = await shouldRunPostgres();
const hasPdftotext = (() => {
  try {
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!hasPdftotext)
  console.log("report-agreement.test: pdftotext (Debian poppler-utils) not installed: PDF checks skipped");

let samples: SamplePractices;
let tmp: string;

beforeAll(async () => {
  samples = await startSamplePractices({ loopbackPrefix: "127.0.63" });
  tmp = mkdtempSync(join(tmpdir(), "hcs-report-agreement-"));
}, 60_000);
afterAll(async () => {
  await samples?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

type Coverage = Record<"external" | "internal" | "administrative", string>;

/** What a page or an answer states about a practice's grade. */
interface Standing {
  readonly grade: string;
  readonly score: number;
  readonly counts: Record<Severity, number>;
  readonly total: number;
  readonly coverage: Coverage;
}

/** Text as read: whitespace runs as one space, the few entities the pages escape as their characters. */
const readable = (text: string) =>
  text
    .replace(/\s+/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * The statements of a grade a page prints ("grade D, 61 out of 100, with 12 open findings (1 critical, …); coverage:
 * external full, …"), read back with a pattern of its own, so the test does not share the code that writes them.
 */
function standingsIn(text: string): Standing[] {
  const flat = readable(text);
  const pattern =
    /grade ([A-F]), (\d+) out of 100, with (\d+) open findings? \((\d+) critical, (\d+) high, (\d+) medium, (\d+) low, (\d+) info\); coverage: external (full|partial|none), internal (full|partial|none), administrative (full|partial|none)\./gi;
  return [...flat.matchAll(pattern)].map((m) => ({
    grade: m[1]!,
    score: Number(m[2]),
    total: Number(m[3]),
    counts: { critical: +m[4]!, high: +m[5]!, medium: +m[6]!, low: +m[7]!, info: +m[8]! },
    coverage: { external: m[9]!, internal: m[10]!, administrative: m[11]! },
  }));
}

/** The sentence of a report (or the dashboard) that introduces a statement of a grade, and the statement. */
function statementAfter(text: string, lead: RegExp): Standing | null {
  const flat = readable(text);
  const at = flat.search(lead);
  if (at < 0) return null;
  return standingsIn(flat.slice(at))[0] ?? null;
}

function reportSuite(engine: "sqlite" | "postgres") {
  describe(`the report, the dashboard and the API on ${engine}`, () => {
    let t: TestServer;
    let owner: Awaited<ReturnType<typeof accountWithKey>>;
    let browser: PortalClient;
    let npi: string;
    let firstJob: string;
    let criticalFindingId: string;

    const get = (path: string, headers: Record<string, string> = {}) =>
      t.request(path, { headers: { "X-API-Key": owner.apiKey, ...headers } });

    async function fullScan(): Promise<string> {
      const res = await t.request("/v1/a2a/scans/dispatch", {
        method: "POST",
        headers: { "X-API-Key": owner.apiKey },
        body: { npi },
      });
      expect(res.status, res.text).toBe(202);
      const end = Date.now() + 30_000;
      for (;;) {
        const job = JobSchema.parse((await get(res.json.poll_url)).json);
        if (job.status === "completed") return job.job_id;
        expect(job.status).not.toBe("failed");
        if (Date.now() > end) throw new Error(`job still ${job.status}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    /** What the API answers now: REST grade, JSON-RPC hipaa.grade, and the open findings counted by severity. */
    async function apiStanding(): Promise<Standing> {
      const rest = GradeRecordSchema.parse((await get(`/v1/a2a/grade/${npi}`)).json);
      const rpc = await t.request("/api/a2a", {
        method: "POST",
        headers: { "X-API-Key": owner.apiKey },
        body: { jsonrpc: "2.0", id: 1, method: "hipaa.grade", params: { npi } },
      });
      expect(rpc.status, rpc.text).toBe(200);
      const viaRpc = GradeRecordSchema.parse(rpc.json.result);
      expect([viaRpc.grade, viaRpc.compliance_score, viaRpc.coverage]).toEqual([
        rest.grade,
        rest.compliance_score,
        rest.coverage,
      ]);
      const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
      let cursor: string | null = null;
      do {
        const page = FindingsPageSchema.parse(
          (await get(`/v1/a2a/findings/${npi}?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)).json,
        );
        for (const f of page.findings) counts[f.severity]++;
        cursor = page.next_cursor;
      } while (cursor);
      return {
        grade: rest.grade,
        score: rest.compliance_score,
        counts,
        total: SEVERITIES.reduce((n, s) => n + counts[s], 0),
        coverage: {
          external: rest.coverage.external.status,
          internal: rest.coverage.internal.status,
          administrative: rest.coverage.administrative.status,
        },
      };
    }

    async function dashboardStanding(): Promise<Standing> {
      const page = await browser.get(`/portal/practices/${npi}`);
      expect(page.status).toBe(200);
      const stated = standingsIn(page.text);
      expect(stated).toHaveLength(1);
      return stated[0]!;
    }

    async function reportHtml(jobId: string): Promise<string> {
      const res = await get(`/v1/a2a/reports/${jobId}`);
      expect(res.status, res.text).toBe(200);
      return res.text;
    }

    async function reportPdfText(jobId: string): Promise<string> {
      const res = await get(`/v1/a2a/reports/${jobId}?format=pdf`);
      expect(res.status).toBe(200);
      const dir = mkdtempSync(join(tmpdir(), "hcs-report-agreement-pdf-"));
      try {
        writeFileSync(join(dir, "r.pdf"), res.bytes);
        return execFileSync("pdftotext", [join(dir, "r.pdf"), "-"]).toString("utf8");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }

    /** The scan's own statement of the grade it shows ("as of this scan's completion …"). */
    const scanStanding = (text: string) => statementAfter(text, /as of this scan's completion/i);
    /** The report's statement of a grade newer than its scan's, if it makes one. */
    const newerStanding = (text: string) => statementAfter(text, /A newer grade exists/);

    beforeAll(async () => {
      t = await startTestServer({ engine, worker: true, env: samplePracticesEnv(samples, tmp) });
      owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 5_000 });
      const site = samples.practices.find((p) => p.name.startsWith("Riverside"))!;
      npi = site.npi;
      await addPractice(t.server.deps, {
        npi,
        name: site.name,
        domain: site.domain,
        website: site.website,
        accountId: owner.accountId,
      });
      ({ browser } = await invitedAndSignedIn(t, owner.accountId, `viewer-${engine}@clinic.example`, "viewer"));
      // Administrative data: a security risk assessment on record.
      const sra = await t.request(`/v1/a2a/sra/${npi}`, {
        method: "POST",
        headers: { "X-API-Key": owner.apiKey },
        body: {},
      });
      expect(sra.status, sra.text).toBe(200);
      // The full scan this test reads the report of…
      firstJob = await fullScan();
      // …then the first scanner upload, with a critical finding: a newer grade, with internal data the scan did not
      // have.
      const enrolled = await enrolledPracticeFor(t, owner.apiKey, npi, 1);
      const agent = await enrolled.enrol("frontdesk-01");
      const doc = scanDocumentAbout(agent.agentId, [{ host: null, count: 3 }], {
        completedAt: new Date().toISOString(),
      });
      criticalFindingId = doc.phases[0]!.findings.find((f) => f.severity === "critical")!.id;
      const uploaded = await enrolled.upload(agent, doc);
      expect(uploaded.status, uploaded.text).toBe(201);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    it("a report overtaken by a newer grade shows its scan's grade, says so with the time, and states the newer grade as the dashboard and the API do", async () => {
      const job = JobSchema.parse((await get(`/v1/a2a/jobs/${firstJob}`)).json);
      const result = job.result!;
      const api = await apiStanding();
      const dashboard = await dashboardStanding();
      expect(dashboard).toEqual(api);
      // The upload changed the grade: the scan's and the current one differ.
      expect(api.counts.critical).toBeGreaterThan(result.report.findings_by_severity.critical);
      const html = await reportHtml(firstJob);
      const texts = hasPdftotext ? [html, await reportPdfText(firstJob)] : [html];
      for (const text of texts) {
        const flat = readable(text);
        expect(scanStanding(text)).toEqual({
          grade: result.grade,
          score: result.compliance_score,
          counts: result.report.findings_by_severity,
          total: result.findings.length,
          coverage: {
            external: result.coverage.external.status,
            internal: result.coverage.internal.status,
            administrative: result.coverage.administrative.status,
          },
        });
        expect(flat).toContain(`as of this scan's completion on ${formatDateTime(job.completed_at!)}`);
        expect(newerStanding(text)).toEqual(api);
      }
    });

    it("a report never contradicts itself: internal evidence only where the scan had internal data, every finding a requirement cites is in the report, requirement 13 unknown without a host's audit controls", async () => {
      const html = await reportHtml(firstJob);
      const scan = scanStanding(html)!;
      expect(scan.coverage.internal).toBe("none");
      // The scan had no internal data: no scanner phase is assessed in its requirements.
      const requirements = /<section aria-labelledby="requirements">([\s\S]*?)<\/section>/.exec(html)![1]!;
      expect(requirements).not.toMatch(/Scanner phase: [^<]*?: (met|partial|not met) —/);
      // Every finding a requirement cites is one of the report's findings; none cites the later critical one.
      const cited = [...requirements.matchAll(/<a href="#([^"]+)">/g)].map((m) => m[1]!);
      const articles = new Set([...html.matchAll(/<article class="finding[^"]*" id="([^"]+)">/g)].map((m) => m[1]!));
      for (const ref of cited) expect(articles).toContain(ref);
      expect(html).not.toContain(criticalFindingId);
      // The audit trail requirement is unknown (no host's audit controls were read) while its audit-log part states
      // the evidence in the hashed log, and the report does not claim no audit trail is kept while it lists audit
      // proof references.
      const row13 = /<tr>\s*<td class="num">13<\/td>([\s\S]*?)<\/tr>/.exec(requirements)![1]!;
      expect(row13).toMatch(/class="pill state-unknown"/);
      expect(row13).toMatch(/no host&#39;s audit controls were read|no host's audit controls were read/);
      expect(row13).toMatch(/HCS audit log: the practice&#39;s evidence|HCS audit log: the practice's evidence/);
      expect(row13).not.toMatch(/no audit trail/i);
      expect(html).toContain("Audit proof references");
      if (hasPdftotext) {
        const pdf = (await reportPdfText(firstJob)).replace(/\s+/g, " ");
        expect(pdf).not.toMatch(/no audit trail/i);
        expect(pdf).not.toContain(criticalFindingId);
      }
    });

    it("the report of the latest scan states the score, grade, counts and coverage the dashboard, REST, JSON-RPC and hipaa.findings state", async () => {
      const latest = await fullScan();
      const api = await apiStanding();
      expect(api.coverage.internal).not.toBe("none");
      expect(api.coverage.administrative).not.toBe("none");
      expect(await dashboardStanding()).toEqual(api);
      const html = await reportHtml(latest);
      expect(scanStanding(html)).toEqual(api);
      expect(html).toContain(`<span class="letter">${api.grade}</span><span class="score">${api.score} / 100</span>`);
      for (const s of SEVERITIES) expect(html).toContain(`${api.counts[s]} ${s[0]!.toUpperCase()}${s.slice(1)}</span>`);
      expect(newerStanding(html)).toBeNull();
      // Its requirements assess the internal evidence the grade rests on.
      expect(html).toMatch(/Scanner phase: [^<]*?: (met|partial|not met) —/);
      // Every proof it points at is the reader's to fetch (the upload's too): pending until a checkpoint, never 404.
      const proofs = [...html.matchAll(/<code>(\/v1\/a2a\/audit\/events\/\d+\/proof)<\/code>/g)].map((m) => m[1]!);
      expect(proofs.length).toBeGreaterThanOrEqual(2);
      for (const path of proofs) {
        const res = await get(path);
        expect(res.status === 200 || res.json.error?.code === "not_checkpointed", `${path}: ${res.text}`).toBe(true);
      }
      if (hasPdftotext) {
        const pdf = await reportPdfText(latest);
        expect(scanStanding(pdf)).toEqual(api);
        expect(newerStanding(pdf)).toBeNull();
      }
    });
  });
}

reportSuite("sqlite");
describe.skipIf(!runPg)("postgres", () => reportSuite("postgres"));

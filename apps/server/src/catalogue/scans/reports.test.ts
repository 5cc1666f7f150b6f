import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FindingInput, JobSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SamplePractices, samplePracticesEnv, startSamplePractices } from "../../sample-practices/index.js";
import { getAccount } from "../../services/accounts.js";
import { addPractice } from "../../services/practices.js";
import { enrolledPracticeFor } from "../../test-support/enrolled-practice.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { scanDocumentAbout } from "../../test-support/scan-documents.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * "Full scan with report", as a partner uses it: a real full scan of a sample practice (its DNS and HTTPS site on
 * loopback) plus a scanner upload, then GET /v1/a2a/reports/{job_id} over HTTPS as HTML and as PDF, on SQLite and
 * PostgreSQL. The PDF is rendered to PNG pages by poppler's pdftoppm and read back by pdftotext.
 */

const runPg = await shouldRunPostgres();
const hasPoppler = (() => {
  try {
    execFileSync("pdftoppm", ["-v"], { stdio: "ignore" });
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!hasPoppler)
  console.log("reports.test: pdftoppm/pdftotext (Debian poppler-utils) not installed: PDF page checks skipped");

const HOSTILE_NAME = `Riverside <script>alert("name")</script> & Sons`;
const HOSTILE_EVIDENCE = `<img src=x onerror=alert(1)><script>alert('evidence')</script>`;
/** Where the rendered pages are kept for a person to look at (gitignored). */
const ARTIFACTS = join(import.meta.dirname, "../../../.test-results/report");

let samples: SamplePractices;
let tmp: string;

beforeAll(async () => {
  samples = await startSamplePractices({ loopbackPrefix: "127.0.26" });
  tmp = mkdtempSync(join(tmpdir(), "hcs-report-"));
}, 60_000);
afterAll(async () => {
  await samples?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** A scanner finding whose evidence and title carry markup, as a hostile or broken host could report them. */
function hostileFinding(): FindingInput {
  return {
    id: "access_control.guest_enabled:local",
    check_id: "access_control.guest_enabled",
    source: "internal",
    category: "access_control",
    severity: "high",
    title: `Guest account enabled <svg onload=alert(2)>`,
    detail: "The built-in guest account can sign in without a password.",
    evidence: { account: HOSTILE_EVIDENCE, enabled: true, groups: ["Guests", "</style><script>x()</script>"] },
    remediation: "Disable the guest account and review which local accounts can sign in interactively.",
    controls: ["164.312(a)(1)", "164.312(d)"],
  };
}

function reportSuite(engine: "sqlite" | "postgres") {
  describe(`GET /v1/a2a/reports/{job_id} on ${engine}`, () => {
    let t: TestServer;
    let owner: Awaited<ReturnType<typeof accountWithKey>>;
    let other: Awaited<ReturnType<typeof accountWithKey>>;
    let jobId: string;
    let npi: string;

    const report = (id: string, headers: Record<string, string> = {}, key = owner.apiKey, query = "") =>
      t.request(`/v1/a2a/reports/${id}${query}`, { headers: { "X-API-Key": key, ...headers } });

    beforeAll(async () => {
      t = await startTestServer({ engine, worker: true, env: samplePracticesEnv(samples, tmp) });
      owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 5_000 });
      other = await accountWithKey(t.server.deps, { credits: 500 });
      const site = samples.practices.find((p) => p.name.startsWith("Riverside"))!;
      npi = site.npi;
      await addPractice(t.server.deps, {
        npi,
        name: HOSTILE_NAME,
        domain: site.domain,
        website: site.website,
        accountId: owner.accountId,
      });
      // A scanner on the practice's network uploads a finding with markup in it.
      const enrolled = await enrolledPracticeFor(t, owner.apiKey, npi, 1);
      const agent = await enrolled.enrol("frontdesk-01");
      const doc = scanDocumentAbout(agent.agentId, [], { completedAt: new Date().toISOString() });
      doc.phases.push({
        id: "access_control",
        status: "ok",
        duration_ms: 30,
        facts: {},
        findings: [hostileFinding()] as never,
      });
      const uploaded = await enrolled.upload(agent, doc);
      expect(uploaded.status, uploaded.text).toBe(201);
      // Two full scans: the report's trend has a grade before this one.
      for (let i = 0; i < 2; i++) {
        const res = await t.request("/v1/a2a/scans/dispatch", {
          method: "POST",
          headers: { "X-API-Key": owner.apiKey },
          body: { npi },
        });
        expect(res.status, res.text).toBe(202);
        jobId = res.json.job_id;
        const end = Date.now() + 30_000;
        for (;;) {
          const job = JobSchema.parse(
            (await t.request(res.json.poll_url, { headers: { "X-API-Key": owner.apiKey } })).json,
          );
          if (job.status === "completed") break;
          expect(job.status).not.toBe("failed");
          if (Date.now() > end) throw new Error(`job still ${job.status}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }, 90_000);
    afterAll(async () => {
      await t?.close();
    });

    it("links the report from the completed job (REST and the A2A task over JSON-RPC)", async () => {
      const job = JobSchema.parse(
        (await t.request(`/v1/a2a/jobs/${jobId}`, { headers: { "X-API-Key": owner.apiKey } })).json,
      );
      expect(job.result?.report.url).toBe(`/v1/a2a/reports/${jobId}`);
      const rpc = await t.request("/api/a2a", {
        method: "POST",
        headers: { "X-API-Key": owner.apiKey, "A2A-Version": "1.0" },
        body: { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: jobId } },
      });
      expect(rpc.status, rpc.text).toBe(200);
      expect(rpc.json.result.metadata.report_url).toBe(`/v1/a2a/reports/${jobId}`);
      expect(rpc.json.result.artifacts[0].parts[0].data.report.url).toBe(`/v1/a2a/reports/${jobId}`);
    });

    it("serves the HTML report: grade, findings with their fixes, the 13 requirements, inert hostile text, a hashed CSP", async () => {
      const before = (await getAccount(t.server.deps, owner.accountId)).credits;
      const res = await report(jobId);
      expect(res.status, res.text).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("private, no-store");
      expect(res.headers["x-credits-charged"]).toBeUndefined();
      expect((await getAccount(t.server.deps, owner.accountId)).credits).toBe(before);
      const body = res.text;
      const job = JobSchema.parse(
        (await t.request(`/v1/a2a/jobs/${jobId}`, { headers: { "X-API-Key": owner.apiKey } })).json,
      );
      const result = job.result!;
      expect(body).toContain(
        `<span class="letter">${result.grade}</span><span class="score">${result.compliance_score} / 100</span>`,
      );
      const rdp = result.findings.find((f) => f.check_id.startsWith("app.exposed_services"))!;
      expect(body).toContain(rdp.title);
      expect(body).toContain(`<p class="fix">${rdp.remediation}</p>`);
      expect(body).toContain("Disable the guest account and review which local accounts can sign in interactively.");
      expect(body).toContain("Encryption at rest");
      expect(body).toContain("Audit trail with SHA-256 hashing and blockchain-anchored proof");
      expect(body.match(/<tr>\s*<td class="num">\d+<\/td>/g)).toHaveLength(13);
      // Every finding of the job is in the report, each with its HIPAA controls.
      expect(body.match(/<article class="finding/g)).toHaveLength(result.findings.length);
      expect(body).toContain("<strong>164.312(a)(1)</strong> Access control");
      // Hostile text comes out as text: no script element, no event handler attribute, the name escaped.
      expect(body).not.toMatch(/<script/i);
      expect(body).not.toMatch(/<img|<svg onload/i);
      expect(body).toContain("Riverside &lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt; &amp; Sons");
      expect(body).toContain(
        "&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(&#39;evidence&#39;)&lt;/script&gt;",
      );
      // The CSP allows exactly the page's one stylesheet, by its hash; nothing else may load or run.
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain("script-src");
      const styles = [...body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      expect(styles).toHaveLength(1);
      expect(csp).toContain(`style-src 'sha256-${createHash("sha256").update(styles[0]!).digest("base64")}'`);
      expect(body).not.toMatch(/\sstyle="/);
      // Audit references: the worker's completion event of this job, with how to fetch its proof.
      const event = await t.server.deps.store.db
        .selectFrom("audit_events")
        .select("id")
        .where("resource", "=", `job:${jobId}`)
        .where("action", "=", "completeScan")
        .executeTakeFirstOrThrow();
      expect(body).toContain(`<code>/v1/a2a/audit/events/${event.id}/proof</code>`);
      expect(body).toContain("hcs-server audit verify-proof proof.json --verifier-key @log-key.txt");
      // The trend has this scan's grade and the one before it.
      expect(body.match(/<circle /g)!.length).toBeGreaterThanOrEqual(2);
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, `report-${engine}.html`), body);
    });

    it.skipIf(!hasPoppler)(
      "serves the PDF report: paginated, numbered pages that pdftoppm renders and pdftotext reads",
      async () => {
        const res = await report(jobId, { Accept: "application/pdf" });
        expect(res.status, res.text.slice(0, 200)).toBe(200);
        expect(res.headers["content-type"]).toBe("application/pdf");
        expect(res.headers["content-disposition"]).toMatch(
          /^inline; filename="hcs-report-\d{10}-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.pdf"$/,
        );
        expect(res.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
        const dir = mkdtempSync(join(tmpdir(), "hcs-report-pdf-"));
        try {
          const pdf = join(dir, "report.pdf");
          writeFileSync(pdf, res.bytes);
          execFileSync("pdftoppm", ["-r", "60", "-png", pdf, join(dir, "page")]);
          const pages = readdirSync(dir)
            .filter((f) => f.endsWith(".png"))
            .sort();
          const text = execFileSync("pdftotext", ["-layout", pdf, "-"]).toString("utf8");
          const job = JobSchema.parse(
            (await t.request(`/v1/a2a/jobs/${jobId}`, { headers: { "X-API-Key": owner.apiKey } })).json,
          );
          const result = job.result!;
          // More findings than fit on a page: several pages, each numbered "Page i of n" with n the page count.
          expect(pages.length).toBeGreaterThanOrEqual(4);
          for (let i = 1; i <= pages.length; i++) expect(text).toContain(`Page ${i} of ${pages.length}`);
          expect(text).toContain(`${result.compliance_score} / 100`);
          expect(text).toMatch(new RegExp(`Grade ${result.grade}, ${result.compliance_score} out of 100`));
          const rdp = result.findings.find((f) => f.check_id.startsWith("app.exposed_services"))!;
          expect(text.replace(/\s+/g, " ")).toContain(rdp.title);
          expect(text).toContain("Guest account enabled <svg onload=alert(2)>");
          expect(text).toContain("The 13 HIPAA requirements");
          mkdirSync(ARTIFACTS, { recursive: true });
          cpSync(pdf, join(ARTIFACTS, `report-${engine}.pdf`));
          for (const p of pages) cpSync(join(dir, p), join(ARTIFACTS, `${engine}-${p}`));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );

    it("negotiates: format=pdf wins over Accept, browsers get HTML, an Accept allowing neither is 406", async () => {
      const pdf = await report(jobId, { Accept: "text/html" }, owner.apiKey, "?format=pdf");
      expect(pdf.headers["content-type"]).toBe("application/pdf");
      const browser = await report(jobId, {
        Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      });
      expect(browser.headers["content-type"]).toBe("text/html; charset=utf-8");
      const json = await report(jobId, { Accept: "application/json" });
      expect(json.status).toBe(406);
      expect(json.json.error).toMatchObject({
        code: "not_acceptable",
        details: { available: ["text/html", "application/pdf"] },
      });
    });

    it("answers another account's job as it answers an unknown one: 404 job_not_found", async () => {
      for (const res of [
        await report(jobId, {}, other.apiKey),
        await report(randomUUID()),
        await report("not-a-job-id"),
      ]) {
        expect(res.status).toBe(404);
        expect(res.json.error.code).toBe("job_not_found");
      }
    });

    it("answers a job that has not completed with 409 job_not_completed and its status", async () => {
      const at = new Date().toISOString();
      const running = randomUUID();
      // A job a worker holds (lease for an hour): the test server's own worker leaves it alone.
      await t.server.deps.store.db
        .insertInto("jobs")
        .values({
          id: running,
          account_id: owner.accountId,
          npi,
          scan_type: "full",
          status: "running",
          callback_url: null,
          attempts: 1,
          max_attempts: 3,
          run_after: at,
          lease_owner: "wrk_elsewhere",
          lease_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          created_at: at,
          started_at: at,
          completed_at: null,
          duration_ms: null,
          credits_charged: 150,
          result: null,
          error_code: null,
          error_message: null,
          a2a_context_id: null,
        })
        .execute();
      const res = await report(running);
      expect(res.status).toBe(409);
      expect(res.json.error).toMatchObject({
        code: "job_not_completed",
        details: { status: "running", poll_url: `/v1/a2a/jobs/${running}` },
      });
    });
  });
}

reportSuite("sqlite");
describe.skipIf(!runPg)("postgres", () => reportSuite("postgres"));

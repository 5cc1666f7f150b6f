import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startLoopMonitor } from "../test-support/loop-monitor.js";
import { RIVERSIDE } from "../test-support/report-sources.js";
import { buildReportModel } from "./build-model.js";
import { renderReportHtml } from "./render-html.js";
import { renderReportPdf } from "./render-pdf.js";
import { type RenderedPage, ReportRenderThread } from "./render-thread.js";

const hasPoppler = (() => {
  try {
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!hasPoppler)
  console.log("renderers.test: pdftotext (Debian poppler-utils) not installed: PDF layout checks skipped");

const model = buildReportModel(RIVERSIDE);

describe("renderReportHtml", () => {
  it("escapes every value, has no script and no style attribute, and its CSP hash is its stylesheet's", async () => {
    const page = await renderReportHtml({
      ...model,
      practice: { ...model.practice, name: `"><script>alert(1)</script>` },
    });
    expect(page.html).not.toMatch(/<script|<img|<svg onload|\sstyle="/i);
    expect(page.html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    const css = page.html.match(/<style>([\s\S]*?)<\/style>/)![1]!;
    expect(page.contentSecurityPolicy).toBe(
      `default-src 'none'; style-src 'sha256-${createHash("sha256").update(css).digest("base64")}'; img-src data:; ` +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it("has every section, each finding anchored by its ref (the summary and the requirements link to them)", async () => {
    const { html } = await renderReportHtml(model);
    for (const id of ["summary", "categories", "requirements", "findings", "coverage", "audit"])
      expect(html).toContain(`<h2 id="${id}">`);
    for (const f of model.findings) expect(html).toContain(`id="${f.ref}"`);
    expect(html).toContain('<a href="#F-1">F-1</a>');
  });
});

describe.skipIf(!hasPoppler)("renderReportPdf", () => {
  /** The text of each page, as pdftotext reads it. */
  async function pagesOf(pdf: Buffer): Promise<string[]> {
    const dir = mkdtempSync(join(tmpdir(), "hcs-pdf-"));
    try {
      writeFileSync(join(dir, "r.pdf"), pdf);
      const text = execFileSync("pdftotext", ["-layout", join(dir, "r.pdf"), "-"]).toString("utf8");
      return text.split("\f").filter((p) => p.trim() !== "");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("numbers every page and repeats a table's header on each page the table continues on", async () => {
    // Many requirements' worth of evidence: the requirements table must run over several pages.
    const long = {
      ...model,
      requirements: {
        ...model.requirements,
        items: model.requirements.items.map((r) => ({
          ...r,
          evidence: [...r.evidence, ...r.evidence, ...r.evidence].map((e) => ({
            ...e,
            detail: `${e.detail}. `.repeat(4),
          })),
        })),
      },
    };
    const pages = await pagesOf(await renderReportPdf(long));
    for (const [i, text] of pages.entries()) expect(text).toContain(`Page ${i + 1} of ${pages.length}`);
    const withRows = pages.filter((p) => /Scanner phase:|Practice records:|External scan:/.test(p));
    expect(withRows.length).toBeGreaterThanOrEqual(3);
    for (const p of withRows) expect(p).toMatch(/#\s+Requirement\s+State\s+Evidence\s+Last verified/);
    // The running header names the practice on every page after the first.
    for (const p of pages.slice(1)) expect(p).toContain(`NPI ${model.practice.npi}`);
  });

  it("prints a hostile practice name as text, in standard fonts", async () => {
    const pdf = await renderReportPdf({ ...model, practice: { ...model.practice, name: "O'Brien & <Sons>" } });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.toString("latin1")).toMatch(/\/BaseFont \/Helvetica/);
    expect((await pagesOf(pdf))[0]).toContain("O'Brien & <Sons>");
  });
});

const pdfOf = (page: RenderedPage) => {
  if (!("pdf" in page)) throw new Error("expected a PDF");
  return page.pdf;
};

describe("ReportRenderThread", () => {
  const thread = new ReportRenderThread();
  afterAll(() => thread.close());

  it("builds and lays PDFs out on its own thread, while this thread's event loop keeps turning", async () => {
    await thread.render(RIVERSIDE, "pdf"); // start-up (loading the worker and pdfkit) is not what is measured
    const monitor = startLoopMonitor();
    const pdfs = await Promise.all([thread.render(RIVERSIDE, "pdf"), thread.render(RIVERSIDE, "pdf")]);
    const loop = monitor.stop();
    for (const pdf of pdfs) expect(pdfOf(pdf).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // Laid out here, one PDF holds this thread for a few hundred milliseconds (docs/report.md); on the PDF thread,
    // no turn of this one does.
    if (loop) expect(loop.cpuPerTurnP99).toBeLessThan(30);
  });

  it("builds and lays the HTML out there too: the page renderReportHtml makes here", async () => {
    const page = await thread.render(RIVERSIDE, "html");
    expect(page).toEqual({ html: await renderReportHtml(model) });
  });

  it("fails what a dead thread had in hand, and starts a new thread for the next report", async () => {
    // A report in the thread's hands when it dies: wait until one is handed over (not merely queued or being
    // serialized) and stop the thread in that same turn. A warm thread may answer a small report before this side
    // looks again; then the next one is tried.
    let stoppedWithOneInHand = false;
    for (let attempt = 0; attempt < 20 && !stoppedWithOneInHand; attempt++) {
      const inHand = thread.render(RIVERSIDE, "pdf");
      let settled = false;
      inHand.then(
        () => (settled = true),
        () => (settled = true),
      );
      while (!thread.layingOut && !settled) await new Promise((r) => setImmediate(r));
      if (!thread.layingOut) continue;
      const failed = expect(inHand).rejects.toThrow(/report thread (exited|was stopped)/);
      await thread.close();
      await failed;
      stoppedWithOneInHand = true;
    }
    expect(stoppedWithOneInHand).toBe(true);
    expect(
      pdfOf(await thread.render(RIVERSIDE, "pdf"))
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
  });

  it("drops a request whose client left before its turn, and refuses beyond the queue's bound (503, Retry-After)", async () => {
    const small = new ReportRenderThread(2);
    try {
      const first = small.render(RIVERSIDE, "pdf");
      const left = new AbortController();
      const abandoned = small.render(RIVERSIDE, "pdf", left.signal);
      const waiting = small.render(RIVERSIDE, "html");
      await expect(small.render(RIVERSIDE, "html")).rejects.toMatchObject({
        code: "unavailable",
        details: { retry_after_seconds: 5 },
      });
      left.abort();
      await expect(abandoned).rejects.toMatchObject({ code: "unavailable" });
      expect(small.waiting).toBe(1);
      await Promise.all([first, waiting]);
      // The abandoned one was never laid out: two layouts for three requests.
      expect(small.started).toBe(2);
      await expect(small.render(RIVERSIDE, "pdf", AbortSignal.abort())).rejects.toMatchObject({ code: "unavailable" });
      expect(small.started).toBe(2);
    } finally {
      await small.close();
    }
  });
});

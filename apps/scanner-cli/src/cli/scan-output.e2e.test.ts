import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import type { ScanResultDocument } from "@hcs/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { runScanner } from "../test-support/run-scanner.js";

// The scan's text report as a person meets it in a terminal 80 or 120 columns wide, in a log (no terminal), and in a
// terminal that reports no size; and its --json next to the document it uploads. Real scanner processes scanning
// this machine (the access_control phase: files and the process list, no network).

const dir = mkdtempSync(join(tmpdir(), "hcs-scanner-output-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BIN = join(import.meta.dirname, "..", "bin.ts");
const PHASES = ["--phases", "access_control", "--no-upload"];

let runs = 0;
/** A scan with --out beside it, so the report can be checked against every finding the scan made. */
async function scanWithDocument(env: Record<string, string>) {
  const out = join(dir, `scan-${++runs}.json`);
  const r = await runScanner(["scan", ...PHASES, "--out", out, "--config-dir", join(dir, "c")], {
    env: { HOME: dir, ...env },
  });
  expect(r.code, r.stderr).toBe(0);
  return { ...r, document: JSON.parse(readFileSync(out, "utf8")) as ScanResultDocument };
}

const findingsOf = (doc: ScanResultDocument) => doc.phases.flatMap((p) => p.findings);
const squeeze = (text: string) => text.replace(/\s+/g, "");

/** Each listed finding's title and whole fix are in the report (wrapping may move words to other lines, not drop them). */
function expectNothingCut(stdout: string, doc: ScanResultDocument) {
  const listed = findingsOf(doc).filter((f) => f.severity !== "info");
  expect(listed.length).toBeGreaterThan(0);
  // Read back cell by cell: the table's columns start where its header's names do.
  const lines = stdout.split("\n");
  const header = lines.findIndex((l) => /^SEVERITY\s+FINDING\s+HOST\s+FIX$/.test(l));
  expect(header).toBeGreaterThanOrEqual(0);
  const starts = ["FINDING", "HOST", "FIX"].map((h) => lines[header]!.indexOf(h));
  const rows: string[][] = [];
  for (const line of lines.slice(header + 1)) {
    if (line.startsWith("(") || (line === "" && rows.length === listed.length)) break;
    if (line === "") continue;
    if (line[0] !== " ") rows.push(["", "", ""]);
    starts.forEach((at, i) => {
      rows.at(-1)![i] += line.slice(at, starts[i + 1] ?? line.length);
    });
  }
  expect(rows.map((r) => r.map(squeeze))).toEqual(
    expect.arrayContaining(
      listed.map((f) => [squeeze(f.title), squeeze(f.host ?? "this host"), squeeze(f.remediation)]),
    ),
  );
  expect(rows).toHaveLength(listed.length);
}

const widest = (text: string) => Math.max(...text.split("\n").map((l) => l.length));

describe("the scan report fits the terminal", () => {
  it.each([80, 120])(
    "at %i columns (COLUMNS): every line fits, nothing is cut",
    async (columns) => {
      const r = await scanWithDocument({ COLUMNS: String(columns) });
      expect(widest(r.stdout)).toBeLessThanOrEqual(columns);
      expectNothingCut(r.stdout, r.document);
    },
    60_000,
  );

  it("in a log (no terminal, no COLUMNS): laid out for 80 columns", async () => {
    const r = await scanWithDocument({});
    expect(widest(r.stdout)).toBeLessThanOrEqual(80);
    expectNothingCut(r.stdout, r.document);
    // One line per phase on stderr, no live view.
    expect(r.stderr).toMatch(/^Access control: ok \(/m);
  }, 60_000);

  const script = (() => {
    try {
      execFileSync("script", ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();

  /** The scan in a pseudo-terminal (util-linux `script`) whose size is set with stty first. */
  function inTerminal(cols: number): Promise<string> {
    const command = [
      `stty cols ${cols} rows ${cols === 0 ? 0 : 40}`,
      `exec ${[process.execPath, "--import", "tsx", BIN, "scan", ...PHASES, "--config-dir", join(dir, "t")]
        .map((a) => `'${a}'`)
        .join(" ")}`,
    ].join("; ");
    return new Promise((resolve, reject) => {
      const child = spawn("script", ["-qec", command, "/dev/null"], {
        env: { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", TERM: "xterm" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let text = "";
      child.stdout.on("data", (d: Buffer) => {
        text += d.toString();
      });
      child.on("error", reject);
      child.on("close", (code) =>
        code === 0
          ? resolve(stripVTControlCharacters(text).replace(/\r/g, ""))
          : reject(new Error(`exit ${code}: ${text}`)),
      );
    });
  }

  it.skipIf(!script)(
    "in a terminal that reports no size: one line per phase and an 80-column report, not one character per line",
    async () => {
      const text = await inTerminal(0);
      const lines = text.split("\n").filter((l) => l.trim() !== "");
      // Before, the live view wrapped at zero columns: hundreds of lines of one or two characters.
      expect(lines.filter((l) => l.trim().length <= 2)).toEqual([]);
      expect(text).toMatch(/^Access control: ok \(/m);
      expect(widest(text)).toBeLessThanOrEqual(80);
      expect(text).toMatch(/^SEVERITY\s+FINDING\s+HOST\s+FIX$/m);
    },
    60_000,
  );

  it.skipIf(!script)(
    "in a terminal 120 columns wide: the live view, and a report that fits",
    async () => {
      const text = await inTerminal(120);
      expect(widest(text)).toBeLessThanOrEqual(120);
      // listr2's view: each phase's line with its mark.
      expect(text).toMatch(/✔ Access control: ok \(/);
      expect(text).toMatch(/^SEVERITY\s+FINDING\s+HOST\s+FIX$/m);
    },
    60_000,
  );
});

describe("--json", () => {
  it("gives each finding the fields the upload document gives it (fix, host, HIPAA controls, evidence), and its phase", async () => {
    const out = join(dir, "json-out.json");
    const r = await runScanner(["scan", ...PHASES, "--json", "--out", out, "--config-dir", join(dir, "j")], {
      env: { HOME: dir },
    });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: Record<string, unknown>[] };
    const document = JSON.parse(readFileSync(out, "utf8")) as ScanResultDocument;
    expect(report.findings).toEqual(document.phases.flatMap((p) => p.findings.map((f) => ({ phase: p.id, ...f }))));
    expect(report.findings.length).toBeGreaterThan(0);
    for (const f of report.findings)
      expect(Object.keys(f)).toEqual(expect.arrayContaining(["remediation", "controls", "category", "evidence"]));
  }, 60_000);
});

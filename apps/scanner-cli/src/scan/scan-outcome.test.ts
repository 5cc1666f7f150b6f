import type { PhaseResult, ScanUploadAcceptance } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { CliError, EXIT } from "../cli/errors.js";
import { scanTextReport } from "../cli/scan-report.js";
import { UNKNOWN_OS } from "../host/host.js";
import { phaseFinding } from "../phases/shared/finding.js";
import type { UploadOutcome } from "../upload/upload.js";
import { buildScanDocument } from "./document.js";
import { notAssessed } from "./not-assessed.js";
import {
  documentHost,
  gradeShown,
  lastScanRecord,
  type ScanView,
  scanExitCode,
  scanJsonReport,
  uploadRoute,
} from "./scan-outcome.js";
import { summarizeScan } from "./summary.js";

// The scan command's decisions and reports, from what a scan produced, without a process, a host or a server.

const identity = { platform: "linux" as const, hostname: () => "FrontDesk-01" };
const unencrypted = phaseFinding("disk_encryption", {
  check: "unencrypted_volume",
  subject: "/",
  severity: "high",
  title: "Fixed volume / is not encrypted",
  detail: "A lost disk exposes every file on it.",
  remediation: "Turn on LUKS.",
  evidence: { mount: "/" },
});
const results: PhaseResult[] = [
  {
    id: "disk_encryption",
    status: "ok",
    duration_ms: 5,
    facts: {},
    findings: [unencrypted] as PhaseResult["findings"],
  },
  {
    id: "mfa",
    status: "skipped",
    duration_ms: 1,
    reason: "sshd needs administrator (root) privileges",
    facts: {},
    findings: [],
  },
];
const uploaded = (grade: "A" | "D", duplicate = false): UploadOutcome => ({
  kind: "uploaded",
  acceptance: { duplicate, grade: { grade, compliance_score: grade === "A" ? 95 : 62 } } as ScanUploadAcceptance,
});
const spooled: UploadOutcome = {
  kind: "spooled",
  path: "/cfg/spool/x.json",
  reason: "the server could not be reached",
};

function view(upload: UploadOutcome | null, extra: Partial<ScanView> = {}): ScanView {
  const { document, leftOut } = buildScanDocument({
    agentId: "agt_AAAAAAAAAAAAAAAA",
    scannerVersion: "0.1.0",
    host: documentHost({ ...UNKNOWN_OS, distro: "Debian", release: "12" }, identity, "x64"),
    scope: { mode: "host", hosts: ["127.0.0.1"], given: [] },
    startedAt: new Date("2026-11-22T01:00:00.000Z"),
    completedAt: new Date("2026-11-22T01:00:05.000Z"),
    phases: results,
    scanId: "3f1c1a52-8a4e-4a43-9a7e-0c5e7e1b2a11",
  });
  const summary = summarizeScan(results, document.host.hostname);
  const shown = gradeShown(upload, summary);
  return {
    document,
    results,
    summary,
    gaps: notAssessed(results),
    leftOut,
    upload,
    flushed: 0,
    registered: true,
    uploadWanted: true,
    shown,
    failUnder: null,
    exit: scanExitCode(upload, undefined, shown),
    outPath: null,
    ...extra,
  };
}

describe("scan outcome", () => {
  it("describes the host by the OS's name for it, else Node's (faked here through the host identity)", () => {
    expect(documentHost({ ...UNKNOWN_OS, hostname: "Reception.Clinic.lan" }, identity, "arm64")).toMatchObject({
      hostname: "reception.clinic.lan",
      platform: "linux",
      os_version: "unknown",
      arch: "arm64",
    });
    expect(documentHost(UNKNOWN_OS, identity, "x64").hostname).toBe("frontdesk-01");
  });

  it("uploads only when registered and wanted, behind earlier scans still in the spool", () => {
    expect(uploadRoute(false, true, 0)).toBe("none");
    expect(uploadRoute(true, false, 3)).toBe("none");
    expect(uploadRoute(true, true, 2)).toBe("spool");
    expect(uploadRoute(true, true, 0)).toBe("send");
  });

  it("shows the server's grade once uploaded, else this host's own", () => {
    const local = summarizeScan(results, "frontdesk-01");
    expect(gradeShown(uploaded("A"), local)).toEqual({ grade: "A", score: 95, scope: "unified" });
    expect(gradeShown(spooled, local)).toEqual({ ...local.localGrade, scope: "this host" });
  });

  it("picks the documented exit code: 4 spooled, 3 below --fail-under (over 4), an error with no grade", () => {
    const shownA = { grade: "A" as const, score: 95, scope: "unified" as const };
    const shownD = { grade: "D" as const, score: 62, scope: "unified" as const };
    expect(scanExitCode(uploaded("A"), "C", shownA)).toBe(EXIT.ok);
    expect(scanExitCode(spooled, undefined, null)).toBe(EXIT.spooled);
    expect(scanExitCode(uploaded("D"), "C", shownD)).toBe(EXIT.belowFailUnder);
    expect(scanExitCode(spooled, "C", { ...shownD, scope: "this host" })).toBe(EXIT.belowFailUnder);
    expect(() => scanExitCode(null, "C", null)).toThrow(CliError);
  });

  it("records for `status` the counts, the upload's fate and the grade shown", () => {
    const v = view(spooled);
    expect(lastScanRecord(v.document, v.summary, v.upload, v.shown)).toMatchObject({
      scan_id: "3f1c1a52-8a4e-4a43-9a7e-0c5e7e1b2a11",
      summary: { phases: { ok: 1, skipped: 1 }, findings: { high: 1 } },
      upload: "spooled",
      grade: { scope: "this host" },
    });
  });

  it("reports as JSON: phases with reasons, findings, what was not assessed, upload and exit code", () => {
    const report = scanJsonReport(view(uploaded("D", true), { failUnder: "C", exit: EXIT.belowFailUnder }));
    expect(report.phases).toContainEqual({
      id: "mfa",
      status: "skipped",
      duration_ms: 1,
      findings: 0,
      reason: "sshd needs administrator (root) privileges",
    });
    // The fields the upload document gives the finding (the fix, HIPAA controls, evidence…), and its phase.
    const uploadedFinding = view(spooled).document.phases.find((p) => p.id === "disk_encryption")!.findings[0]!;
    expect(report.findings).toEqual([{ phase: "disk_encryption", ...uploadedFinding }]);
    expect(report.findings[0]).toMatchObject({
      id: unencrypted.id,
      severity: "high",
      title: "Fixed volume / is not encrypted",
      remediation: expect.any(String),
      controls: expect.arrayContaining([expect.any(String)]),
    });
    expect(report.upload).toEqual({ status: "uploaded", duplicate: true });
    expect(report).toMatchObject({ grade: { grade: "D" }, fail_under: "C", exit_code: 3 });
    expect(report.not_assessed.map((g) => g.phase)).toContain("mfa");
  });

  it("reports as text: the findings table, the spool, the grade; --quiet keeps counts and grade", () => {
    const paint = (_style: string, text: string) => text;
    const full = scanTextReport(view(spooled, { outPath: "/tmp/scan.json" }), { quiet: false, paint, width: 200 });
    const out = full.filter((l) => l.to === "out").map((l) => l.text);
    expect(out).toContain(
      "Scan 3f1c1a52-8a4e-4a43-9a7e-0c5e7e1b2a11 of frontdesk-01: 1 ok, 0 failed, 1 skipped, 0 unsupported",
    );
    expect(out.some((l) => /^HIGH\s+Fixed volume \/ is not encrypted/.test(l))).toBe(true);
    expect(
      out.some((l) => l.startsWith("Not uploaded: the server could not be reached. Saved in /cfg/spool/x.json")),
    ).toBe(true);
    expect(out.at(-1)).toBe("Scan document written to /tmp/scan.json");
    const quiet = scanTextReport(view(spooled), { quiet: true, paint, width: 200 });
    expect(quiet.filter((l) => l.to === "out").map((l) => l.text)).toEqual([
      expect.stringMatching(/^Scan .* 1 ok/),
      expect.stringMatching(/^Findings: 0 critical, 1 high/),
      expect.stringMatching(/^Grade \(this host\): [A-F] \(\d+\/100\)$/),
    ]);
    // --quiet is read by scripts: its count line is never wrapped, however narrow the terminal.
    const narrow = scanTextReport(view(spooled), { quiet: true, paint, width: 60 });
    expect(narrow.filter((l) => l.to === "out").map((l) => l.text)[0]).toMatch(/^Scan .* 0 unsupported$/);
    expect(quiet.filter((l) => l.to === "err").map((l) => l.text)).toEqual([
      "not uploaded (the server could not be reached); saved in /cfg/spool/x.json",
    ]);
    const below = scanTextReport(view(uploaded("D"), { failUnder: "C", exit: EXIT.belowFailUnder }), {
      quiet: false,
      paint,
      width: 200,
    });
    expect(below.at(-1)).toEqual({ to: "err", text: "grade D is below --fail-under C" });
    const unregistered = scanTextReport(view(null, { registered: false }), { quiet: false, paint, width: 200 });
    expect(unregistered.map((l) => l.text)).toContain(
      "Not uploaded: this machine is not registered (hcs-scanner register).",
    );
  });
});

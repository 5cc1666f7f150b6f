import { describe, expect, it } from "vitest";
import { gradeStanding } from "../services/grade-standing.js";
import { RIVERSIDE } from "../test-support/report-sources.js";
import { buildReportModel, TREND_POINTS, trendOf } from "./build-model.js";
import { evidenceLines } from "./evidence-lines.js";

/* The report model of a captured full scan (fixtures/riverside.ts). */
describe("buildReportModel on a captured full scan", () => {
  const model = buildReportModel(RIVERSIDE);
  const result = RIVERSIDE.job.result;

  it("summarises the job's grade: score, headline naming the worst findings and the binding cap, fix-first list", () => {
    expect(model.summary).toMatchObject({ grade: "F", score: 59, total_findings: 24 });
    expect(model.summary.findings_by_severity).toEqual({ critical: 1, high: 7, medium: 7, low: 7, info: 2 });
    expect(model.summary.headline).toBe(
      "Grade F, 59 out of 100, with 24 open findings (1 critical and 7 high severity). The grade can be no better " +
        "than F: A remote access service (RDP, SMB, telnet, VNC) is reachable from the internet.",
    );
    expect(model.summary.caps.map((c) => c.max_grade)).toEqual(["F", "D", "C", "B"]);
    expect(model.summary.fix_first.map((f) => f.ref)).toEqual(["F-1", "F-2", "F-3", "F-4", "F-5"]);
    expect(model.summary.fix_first[0]).toEqual({
      ref: "F-1",
      title: "Remote Desktop (RDP) port 3389 is reachable from the internet",
      severity: "critical",
    });
  });

  it("keeps every finding in the job's order with its evidence, fix and controls (titles and R/A)", () => {
    expect(model.findings.map((f) => f.id)).toEqual(result.findings.map((f) => f.id));
    expect(model.findings.map((f) => f.ref)).toEqual(result.findings.map((_, i) => `F-${i + 1}`));
    const rdp = model.findings[0]!;
    expect(rdp).toMatchObject({
      severity: "critical",
      category_title: "Website and exposed services security",
      host: "www.riverside-ortho.test",
      remediation:
        "Close port 3389 to the internet; reach internal machines through a VPN with multi-factor authentication instead.",
      cap: { max_grade: "F" },
    });
    expect(rdp.evidence).toEqual([
      { label: "host", value: "www.riverside-ortho.test" },
      { label: "addresses", value: "127.0.26.3" },
      { label: "port", value: "3389" },
      { label: "service", value: "rdp" },
    ]);
    expect(rdp.controls).toContainEqual({
      id: "164.312(d)",
      title: "Person or entity authentication",
      requirement: null,
    });
    const eol = model.findings.find((f) => f.id.startsWith("app.server_disclosure.end_of_life"))!;
    expect(eol.controls).toContainEqual({
      id: "164.308(a)(5)(ii)(B)",
      title: "Protection from malicious software",
      requirement: "addressable",
    });
    // The model keeps hostile text as the scanner reported it: escaping is the renderers' job.
    const guest = model.findings.find((f) => f.id === "access_control.guest_enabled:local")!;
    expect(guest.title).toBe("Guest account enabled <svg onload=alert(2)>");
    expect(guest.evidence[0]).toEqual({
      label: "account",
      value: "<img src=x onerror=alert(1)><script>alert('evidence')</script>",
    });
  });

  it("lists every category in table order, with its score or no data and its open findings", () => {
    expect(model.categories.map((c) => [c.name, c.score])).toEqual([
      ["email_security", 55],
      ["application_security", 0],
      ["privacy_compliance", 45],
      ["encryption", 100],
      ["access_control", 80],
      ["network_security", 100],
      ["asset_management", null],
      ["contingency", null],
      ["administrative_safeguards", null],
    ]);
    expect(model.categories[1]!.findings).toEqual({ critical: 1, high: 3, medium: 4, low: 5, info: 1 });
  });

  it("states the 13 requirements with their evidence, pointing at the report's findings", () => {
    expect(model.requirements.items).toHaveLength(13);
    expect(model.requirements.summary).toEqual({ met: 1, partial: 1, not_met: 2, unknown: 9 });
    const mfa = model.requirements.items[1]!;
    expect(mfa).toMatchObject({ number: 2, title: "Multi-factor authentication", state: "not_met" });
    expect(mfa.evidence[1]).toMatchObject({ label: "Scanner phase: Access control", state: "not_met" });
    const guestRef = model.findings.find((f) => f.id === "access_control.guest_enabled:local")!.ref;
    expect(mfa.evidence[1]!.findings).toEqual([guestRef]);
    expect(model.requirements.items[7]!.evidence[0]!.label).toBe(
      "External scan: Email security (SPF, DKIM, DMARC, MTA-STS)",
    );
  });

  it("says which assessment it shows: the unified grade as of the scan's completion, with the time", () => {
    expect(model.summary.as_of).toBe(RIVERSIDE.job.completed_at);
    expect(model.summary.statement).toBe(
      "This report shows the practice's unified grade as of this scan's completion on 24 Nov 2026, 08:39 UTC: grade " +
        "F, 59 out of 100, with 24 open findings (1 critical, 7 high, 7 medium, 7 low, 2 info); coverage: external " +
        "full, internal partial, administrative none.",
    );
    expect(model.summary.newer).toBeNull();
    expect(model.requirements.note).toBe(
      "As of this scan's completion on 24 Nov 2026, 08:39 UTC: 1 met, 1 partial, 2 not met, 9 unknown (not assessed, or no evidence yet).",
    );
    expect(model.coverage.hosts_note).toBeNull();
    const audit = model.requirements.items[12]!;
    expect(audit.evidence[0]!.detail).toMatch(/^not assessed/);
  });

  it("states a newer grade than the scan's as the dashboard does, when one exists", () => {
    const now = { ...result, compliance_score: 41, grade: "F" as const };
    const findings = [...result.findings, { ...result.findings[0]!, id: "later" }];
    const overtaken = buildReportModel({ ...RIVERSIDE, newer: gradeStanding(now, findings) });
    expect(overtaken.summary.newer).toEqual({
      as_of: RIVERSIDE.generatedAt,
      grade: "F",
      score: 41,
      statement:
        "A newer grade exists. As of this report's generation on 24 Nov 2026, 08:39 UTC: grade F, 41 out of 100, " +
        "with 25 open findings (2 critical, 7 high, 7 medium, 7 low, 2 info); coverage: external full, internal " +
        "partial, administrative none. The dashboard and the API state this one; a new scan gives a report of it.",
    });
    // The scan's own statement is unchanged: the report still shows its scan.
    expect(overtaken.summary.statement).toBe(model.summary.statement);
  });

  it("says why no requirements show for a scan that kept none once the practice was graded again", () => {
    const legacy = buildReportModel({ ...RIVERSIDE, requirements: null, newer: gradeStanding(result, []) });
    expect(legacy.requirements).toMatchObject({ as_of: null, summary: null, items: [] });
    expect(legacy.requirements.note).toMatch(/^This scan's requirements were not kept when it completed/);
    expect(legacy.audit.records.map((r) => r.resource)).toEqual([`job:${RIVERSIDE.job.job_id}`]);
  });

  it("says the internal categories had no data when no scanner had uploaded by the scan's completion", () => {
    const none = { status: "none" as const, categories_with_data: [], categories_without_data: [] };
    const externalOnly = {
      ...result,
      internal_basis: undefined,
      coverage: { ...result.coverage, internal: none },
    };
    const m = buildReportModel({ ...RIVERSIDE, job: { ...RIVERSIDE.job, result: externalOnly } });
    expect(m.coverage.hosts).toEqual([]);
    expect(m.coverage.hosts_note).toBe(
      "No internal scanner had uploaded results when this scan completed: the internal categories had no data.",
    );
  });

  it("covers the sources, the scanner host and each subject's last assessment", () => {
    expect(model.coverage.sources.map((s) => [s.source, s.status])).toEqual([
      ["external", "full"],
      ["internal", "partial"],
      ["administrative", "none"],
    ]);
    expect(model.coverage.hosts).toEqual([
      expect.objectContaining({ host: "frontdesk-01", assessed_phases: 3, expired_phases: 0 }),
    ]);
    expect(model.coverage.assessments.map((a) => [a.source, a.subject])).toEqual([
      ["external", "riverside-ortho.test"],
      ["internal", "frontdesk-01"],
    ]);
  });

  it("references the audit events: this scan first, then the upload; proved only once a checkpoint covers the leaf", () => {
    expect(model.audit.records.map((r) => [r.resource.split(":")[0], r.event_id, r.leaf_index, r.state])).toEqual([
      ["job", 30, null, "pending"],
      ["scan", 5, 4, "pending"],
    ]);
    expect(model.audit.records[0]!.proof_path).toBe("/v1/a2a/audit/events/30/proof");
    const later = buildReportModel({ ...RIVERSIDE, checkpointSize: 10 });
    expect(later.audit.records.map((r) => r.state)).toEqual(["pending", "proved"]);
    const unlogged = buildReportModel({ ...RIVERSIDE, auditEvents: [] });
    expect(unlogged.audit.records.map((r) => [r.state, r.proof_path])).toEqual([
      ["not_logged", null],
      ["not_logged", null],
    ]);
    expect(model.audit.how_to_verify[0]).toContain("https://hcs.example:8443/v1/a2a/audit/events/<event id>/proof");
  });
});

describe("trendOf", () => {
  const at = (d: number) => `2026-11-${String(d).padStart(2, "0")}T09:00:00.000Z`;

  it("is 'first' with one grade, and says up, down or unchanged against the grade before", () => {
    expect(trendOf([{ at: at(1), score: 70, grade: "C" }])).toMatchObject({ direction: "first", change: null });
    expect(
      trendOf([
        { at: at(1), score: 70, grade: "C" },
        { at: at(8), score: 76, grade: "C" },
      ]),
    ).toMatchObject({ direction: "up", change: 6, sentence: "Up 6 points since 1 Nov 2026 (still C)." });
    expect(
      trendOf([
        { at: at(1), score: 94, grade: "A" },
        { at: at(2), score: 59, grade: "F" },
      ]).sentence,
    ).toBe("Down 35 points since 1 Nov 2026 (A → F).");
    expect(trendOf(RIVERSIDE.history).sentence).toBe("Unchanged since 24 Nov 2026 (59/100, still F).");
  });

  it("shows at most the last TREND_POINTS grades, ending with the job's", () => {
    const history = Array.from({ length: 20 }, (_, i) => ({ at: at(i + 1), score: 50 + i, grade: "F" as const }));
    const trend = trendOf(history);
    expect(trend.points).toHaveLength(TREND_POINTS);
    expect(trend.points.at(-1)!.score).toBe(69);
  });
});

describe("evidenceLines", () => {
  it("flattens nested evidence into labelled lines in the check's order", () => {
    expect(
      evidenceLines({
        tracker: "Hotjar",
        pages: [{ path: "/patient-portal/login", kind: "login" }],
        suites: { "TLS 1.0": ["A", "B"], "TLS 1.2": [] },
        header: null,
        enabled: false,
        empty: {},
      }),
    ).toEqual([
      { label: "tracker", value: "Hotjar" },
      { label: "pages", value: "path: /patient-portal/login, kind: login" },
      { label: "suites / TLS 1.0", value: "A; B" },
      { label: "suites / TLS 1.2", value: "none" },
      { label: "header", value: "none" },
      { label: "enabled", value: "false" },
      { label: "empty", value: "none" },
    ]);
    expect(evidenceLines({})).toEqual([]);
  });

  it("clips a very long value", () => {
    const [line] = evidenceLines({ suites: "x".repeat(5_000) });
    expect(line!.value).toHaveLength(600);
    expect(line!.value.endsWith("…")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { type InternalFinding, type InternalResult, internalGradeInputs } from "./internal-basis.js";

const DAY = 86_400_000;
const t0 = Date.parse("2026-11-01T00:00:00.000Z");
const day = (n: number) => new Date(t0 + n * DAY);
const result = (subject: string, phase: InternalResult["phase"], n: number): InternalResult => ({
  subject,
  phase,
  assessed_at: day(n).toISOString(),
  scope: { mode: "targets", targets: ["10.0.0.0/24"] },
});

describe("internalGradeInputs: the latest result per host and phase, with its age", () => {
  const results = [result("a", "disk_encryption", 0), result("a", "ports", 10), result("b", "backups", 25)];
  const findings: InternalFinding[] = [
    { subject: "a", category: "encryption", severity: "critical", grade_cap: "unencrypted_ephi_device" },
  ];

  it("counts the categories of current results and every open finding; dates the basis", () => {
    const { subjects, basis, validUntil } = internalGradeInputs(results, findings, day(12));
    expect(subjects).toEqual([
      {
        source: "internal",
        subject: "a",
        categories: ["network_security", "encryption"],
        findings: [{ category: "encryption", severity: "critical", grade_cap: "unencrypted_ephi_device" }],
      },
      { source: "internal", subject: "b", categories: ["contingency"], findings: [] },
    ]);
    expect(validUntil).toBe(day(30).toISOString());
    expect(basis!.hosts[0]).toEqual({
      host: "a",
      phases: [
        {
          phase: "ports",
          state: "current",
          assessed_at: day(10).toISOString(),
          age_days: 2,
          expires_at: day(40).toISOString(),
          scope: { mode: "targets", targets: ["10.0.0.0/24"] },
        },
        {
          phase: "disk_encryption",
          state: "current",
          assessed_at: day(0).toISOString(),
          age_days: 12,
          expires_at: day(30).toISOString(),
        },
      ],
      not_assessed: [
        "discovery",
        "tls",
        "mfa",
        "access_control",
        "segmentation",
        "asset_inventory",
        "patches",
        "eol",
        "backups",
        "ephi_flow",
      ],
    });
  });

  it("an expired result vouches for nothing, but its open findings still count", () => {
    const { subjects, basis, validUntil } = internalGradeInputs(results, findings, day(30));
    // disk_encryption expired exactly at day 30; the finding keeps encryption in.
    expect(subjects[0]!.categories).toEqual(["network_security", "encryption"]);
    expect(basis!.hosts[0]!.phases.find((p) => p.phase === "disk_encryption")!.state).toBe("expired");
    expect(validUntil).toBe(day(40).toISOString());
    const all = internalGradeInputs(results, [], day(60));
    expect(all.subjects.map((s) => s.categories)).toEqual([[], []]);
    expect(all.validUntil).toBeNull();
  });

  it("no results and no findings: no basis", () => {
    expect(internalGradeInputs([], [], day(0))).toEqual({ subjects: [], basis: null, validUntil: null });
  });
});

import type { PhaseResult } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { notAssessed, notAssessedLines } from "./not-assessed.js";

const phase = (p: Partial<PhaseResult> & Pick<PhaseResult, "id" | "status">): PhaseResult => ({
  duration_ms: 1,
  facts: {},
  findings: [],
  ...p,
});

describe("what a scan did not assess", () => {
  it("lists phases that did not complete with their reason, and the checks completed phases name", () => {
    const results = [
      phase({ id: "ports", status: "ok" }),
      phase({ id: "mfa", status: "unsupported", reason: "not on this platform" }),
      phase({ id: "patches", status: "failed", error: { code: "parse", message: "apt printed an unexpected list" } }),
      phase({
        id: "segmentation",
        status: "ok",
        facts: { firewall: "unknown", not_assessed: { host_firewall: "its state could not be read (ufw is missing)" } },
      }),
      phase({ id: "backups", status: "skipped", reason: "needs the software list" }),
    ];
    const gaps = notAssessed(results);
    expect(gaps).toEqual([
      { phase: "mfa", status: "unsupported", reason: "not on this platform" },
      { phase: "patches", status: "failed", reason: "apt printed an unexpected list" },
      {
        phase: "segmentation",
        check: "host_firewall",
        status: "ok",
        reason: "its state could not be read (ufw is missing)",
      },
      { phase: "backups", status: "skipped", reason: "needs the software list" },
    ]);
    expect(notAssessedLines(gaps)).toEqual([
      "Not assessed (unknown, not passed):",
      "  mfa: unsupported, not on this platform",
      "  patches: failed, apt printed an unexpected list",
      "  segmentation: host firewall: its state could not be read (ufw is missing)",
      "  backups: skipped, needs the software list",
    ]);
  });

  it("says nothing when everything selected was assessed; ignores a malformed not_assessed", () => {
    const results = [phase({ id: "ports", status: "ok", facts: { not_assessed: ["x"] } })];
    expect(notAssessed(results)).toEqual([]);
    expect(notAssessedLines([])).toEqual([]);
  });
});

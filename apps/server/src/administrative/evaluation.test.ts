import { hipaaControl, scorePractice } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import {
  type AdministrativeSnapshot,
  administrativeFindings,
  administrativeRecordStates,
  hasAdministrativeRecords,
} from "./evaluation.js";
import { trainingSummary } from "./training-status.js";

const empty: AdministrativeSnapshot = {
  today: "2024-06-01",
  sra_on: null,
  questionnaire_on: null,
  policies: new Map(),
  training: null,
  vendors: [],
  incidents: [],
};
const all24 = (on: string) => new Map(Array.from({ length: 24 }, (_, i) => [i + 1, on]));
const score = (s: AdministrativeSnapshot) =>
  scorePractice([
    {
      source: "administrative",
      subject: "records",
      categories: ["administrative_safeguards"],
      findings: administrativeFindings(s),
    },
  ])!.categories.administrative_safeguards!.score;

describe("administrative evaluation", () => {
  it("has no data before any record, and every finding cites catalogue controls", () => {
    expect(hasAdministrativeRecords(empty)).toBe(false);
    expect(administrativeRecordStates(empty, []).risk_assessment.state).toBe("unknown");
    const findings = administrativeFindings({
      ...empty,
      vendors: [{ vendor_id: "v", name: "V", phi_access: true, baa_status: "none", expires_on: null }],
    });
    expect(findings.map((f) => f.check_id).sort()).toEqual([
      "administrative.baa_missing",
      "administrative.policies_incomplete",
      "administrative.sra_missing",
      "administrative.training_roster_missing",
    ]);
    for (const f of findings) for (const c of f.controls) expect(hipaaControl(c), c).toBeDefined();
  });

  it("scores the documented worked example", () => {
    const roster = [{ member_id: "e1", name: "A", role: "r", hired_on: "2020-01-01", terminated_on: null }];
    const trained = trainingSummary(
      roster,
      [{ member_id: "e1", course: "c", completed_on: "2024-02-01" }],
      "2024-06-01",
    );
    const base = { ...empty, incidents: [] };
    expect(score({ ...base, questionnaire_on: "2024-05-01" })).toBe(20);
    expect(score({ ...base, sra_on: "2024-05-01" })).toBe(60);
    expect(score({ ...base, sra_on: "2024-05-01", policies: all24("2024-05-02") })).toBe(80);
    expect(score({ ...base, sra_on: "2024-05-01", policies: all24("2024-05-02"), training: trained })).toBe(100);
    // One policy out of date is medium; an SRA of exactly a calendar year ago (across a leap day) is still current, a
    // day more is not.
    const older = all24("2024-05-02");
    older.set(3, "2023-05-01");
    expect(score({ ...base, sra_on: "2023-06-01", policies: older, training: trained })).toBe(90);
    expect(score({ ...base, sra_on: "2023-05-31", policies: all24("2024-05-02"), training: trained })).toBe(60);
  });

  it("reads requirements 9–12 by the documented rules", () => {
    const s: AdministrativeSnapshot = {
      ...empty,
      questionnaire_on: "2024-05-01",
      policies: new Map([[1, "2024-05-01"]]),
      vendors: [
        { vendor_id: "a", name: "A", phi_access: true, baa_status: "signed", expires_on: "2024-06-20" },
        { vendor_id: "b", name: "B", phi_access: false, baa_status: "none", expires_on: null },
      ],
    };
    const states = administrativeRecordStates(s, administrativeFindings(s));
    expect(states.risk_assessment.state).toBe("partial");
    expect(states.policies).toMatchObject({
      state: "partial",
      detail: "1 of 24 policies generated or reviewed within 12 months",
    });
    expect(states.training.state).toBe("not_met");
    expect(states.baa.state).toBe("met"); // expiring is still covered; the vendor without PHI access needs none
  });
});

import { describe, expect, it } from "vitest";
import { latestTest, type RestoreTest, restoreFinding, systemKey, verdictOf } from "./restore-rules.js";

const test = (tested_on: string, minutes = 120, succeeded = true, ref = "rst_0000000000000001"): RestoreTest => ({
  source: "record",
  ref,
  tested_on,
  minutes,
  succeeded,
});

describe("restore readiness rules", () => {
  it("counts a test within 12 months on the calendar, never one from the future", () => {
    expect(latestTest([test("2025-03-01")], "2026-03-01")?.tested_on).toBe("2025-03-01");
    expect(latestTest([test("2025-02-28")], "2026-03-01")).toBeNull();
    // A leap day: 12 months before 2025-02-28 is 2024-02-28.
    expect(latestTest([test("2024-02-28")], "2025-02-28")?.tested_on).toBe("2024-02-28");
    expect(latestTest([test("2026-03-02")], "2026-03-01")).toBeNull();
  });

  it("the latest test decides: a success the same day as a failure wins, an older success does not", () => {
    expect(verdictOf(latestTest([test("2026-01-10", 60, false), test("2026-01-10", 60, true)], "2026-02-01"))).toBe(
      "tested",
    );
    expect(verdictOf(latestTest([test("2025-12-01"), test("2026-01-10", 60, false)], "2026-02-01"))).toBe("failed");
    expect(verdictOf(latestTest([test("2026-01-10", 72 * 60)], "2026-02-01"))).toBe("over_72_hours");
    expect(verdictOf(latestTest([test("2026-01-10", 72 * 60 - 1)], "2026-02-01"))).toBe("tested");
    expect(verdictOf(null)).toBe("not_tested");
  });

  it("matches scanner hosts by their first DNS label, case aside", () => {
    expect(systemKey(" EHR-Server.clinic.lan ")).toBe("ehr-server");
    expect(systemKey("ehr-server")).toBe(systemKey("EHR-SERVER"));
  });

  it("gives an ePHI host's restore finding its severity, contingency category and controls", () => {
    expect(restoreFinding("ehr-server", test("2026-01-10"))).toBeNull();
    expect(restoreFinding("ehr-server", null)).toMatchObject({
      id: "backups.restore_not_tested",
      severity: "medium",
      category: "contingency",
      controls: ["164.308(a)(7)(ii)(B)", "164.308(a)(7)(ii)(D)"],
      host: "ehr-server",
    });
    expect(restoreFinding("ehr-server", test("2026-01-10", 60, false))).toMatchObject({
      id: "backups.restore_test_failed",
      severity: "high",
    });
    expect(restoreFinding("ehr-server", test("2026-01-10", 100 * 60))).toMatchObject({
      id: "backups.restore_over_72_hours",
      severity: "high",
      evidence: { minutes: 6000, limit_hours: 72 },
    });
  });
});

import { describe, expect, it } from "vitest";
import { CONFORMANCE_TARGET, printConformance, runConformanceTables } from "../../test-support/conformance.js";
import { discoverDmarcPolicy } from "../dmarc-record.js";
import { CHECKDMARC_DMARC, type DmarcTxt, type DmarcVerdict, MAILAUTH_DMARC } from "./dmarc-tables.js";

const discover = (txt: DmarcTxt) => discoverDmarcPolicy(txt.map((strings) => strings.join("")));

/** Our verdict against the source's: applied with the values it checks, an error, or nothing to apply. */
function dmarcAgrees(txt: DmarcTxt, expected: DmarcVerdict): boolean {
  const found = discover(txt);
  const applied = found.state === "record" && found.parsed.ok ? found.parsed : null;
  switch (expected.verdict) {
    case "none":
      return applied === null;
    case "error":
      return applied === null || applied.problems.length > 0 || applied.warnings.length > 0;
    case "applied": {
      if (applied === null) return false;
      const { verdict: _, ...fields } = expected;
      return Object.entries(fields).every(
        ([key, value]) => JSON.stringify(applied.record[key as keyof typeof applied.record]) === JSON.stringify(value),
      );
    }
  }
}

describe("DMARC record conformance (checkdmarc, mailauth)", () => {
  it(`agrees with at least ${CONFORMANCE_TARGET * 100} % of the applicable cases`, async () => {
    const report = await runConformanceTables(
      "DMARC records",
      [CHECKDMARC_DMARC, MAILAUTH_DMARC],
      dmarcAgrees,
      discover,
    );
    printConformance(report);
    expect(report.failures).toEqual([]);
    expect(report.passed / report.applicable).toBeGreaterThanOrEqual(CONFORMANCE_TARGET);
  });
});

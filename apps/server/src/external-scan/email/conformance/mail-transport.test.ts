import { describe, expect, it } from "vitest";
import { CONFORMANCE_TARGET, printConformance, runConformanceTables } from "../../test-support/conformance.js";
import type { RecordDiscovery } from "../field-record.js";
import { discoverMtaStsRecord } from "../mta-sts-record.js";
import { discoverTlsRptRecord } from "../tls-rpt-record.js";
import {
  CHECKDMARC_MTA_STS,
  CHECKDMARC_TLS_RPT,
  POSTFIX_MTA_STS_RESOLVER,
  type PolicyTxt,
  type PolicyVerdict,
} from "./mail-transport-tables.js";

type Parsed = { ok: true; id?: string; rua?: readonly string[] } | { ok: false; problem: string };

/** Our verdict against the source's: a usable record (with the id or URIs it checks), an error, or no record. */
function agrees(found: RecordDiscovery<Parsed>, expected: PolicyVerdict): boolean {
  const usable = found.state === "record" && found.parsed.ok ? found.parsed : null;
  switch (expected.verdict) {
    case "none":
      return found.state === "none";
    case "error":
      return usable === null;
    case "valid":
      return (
        usable !== null &&
        (expected.id === undefined || usable.id === expected.id) &&
        (expected.rua === undefined || JSON.stringify(usable.rua) === JSON.stringify(expected.rua))
      );
  }
}

describe("MTA-STS and TLS-RPT record conformance (checkdmarc, postfix-mta-sts-resolver)", () => {
  it(`MTA-STS: agrees with at least ${CONFORMANCE_TARGET * 100} % of the applicable cases`, async () => {
    const run = (txt: PolicyTxt) => discoverMtaStsRecord(txt);
    const report = await runConformanceTables(
      "MTA-STS records",
      [CHECKDMARC_MTA_STS, POSTFIX_MTA_STS_RESOLVER],
      (txt, expected) => agrees(run(txt), expected),
      run,
    );
    printConformance(report);
    expect(report.failures).toEqual([]);
    expect(report.passed / report.applicable).toBeGreaterThanOrEqual(CONFORMANCE_TARGET);
  });

  it(`TLS-RPT: agrees with at least ${CONFORMANCE_TARGET * 100} % of the applicable cases`, async () => {
    const run = (txt: PolicyTxt) => discoverTlsRptRecord(txt);
    const report = await runConformanceTables(
      "TLS-RPT records",
      [CHECKDMARC_TLS_RPT],
      (txt, expected) => agrees(run(txt), expected),
      run,
    );
    printConformance(report);
    expect(report.failures).toEqual([]);
    expect(report.passed / report.applicable).toBeGreaterThanOrEqual(CONFORMANCE_TARGET);
  });
});

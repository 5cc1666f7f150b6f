import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { sharedDataFile } from "../../../test-support/shared-data.js";
import {
  type CaseResult,
  CONFORMANCE_TARGET,
  conformanceReport,
  printConformance,
} from "../../test-support/conformance.js";
import { spfZoneDns, type ZoneData } from "../../test-support/spf-zone.js";
import { checkHost, type SpfResult } from "../spf-eval.js";
import { spfIdentity } from "../spf-names.js";
import { RFC7208_EXCLUDED } from "./rfc7208-exclusions.js";

/**
 * The openspf RFC 7208 test suite (release 2014.04, as shipped in pyspf), read from ../shared/data where the
 * project keeps public reference data; it is never copied into the repository.
 */
const suitePath = sharedDataFile("conformance/rfc7208-tests.yml", "RFC 7208 SPF test suite");

interface SuiteTest {
  readonly host: string;
  readonly mailfrom: string;
  readonly helo: string;
  readonly result: SpfResult | SpfResult[];
  readonly explanation?: string;
  readonly spec?: string | number;
}

interface SuiteDocument {
  readonly description: string;
  readonly tests: Readonly<Record<string, SuiteTest>>;
  readonly zonedata: ZoneData;
}

function loadSuite(path: string): SuiteDocument[] {
  return parseAllDocuments(readFileSync(path, "utf8")).map((doc) => doc.toJS() as SuiteDocument);
}

// The suite's drivers set this as the default explanation and compare it where a test names it.
const DEFAULT_EXPLANATION = "DEFAULT";

async function runTest(doc: SuiteDocument, test: SuiteTest): Promise<{ pass: boolean; got: unknown }> {
  const { sender, domain } = spfIdentity(String(test.mailfrom ?? ""), String(test.helo));
  const outcome = await checkHost(
    { ip: String(test.host), domain, sender, helo: String(test.helo), receiver: "receiver.example" },
    spfZoneDns(doc.zonedata),
  );
  const allowed = Array.isArray(test.result) ? test.result : [test.result];
  const explanation = outcome.explanation ?? DEFAULT_EXPLANATION;
  const pass =
    allowed.includes(outcome.result) && (test.explanation === undefined || String(test.explanation) === explanation);
  return { pass, got: { result: outcome.result, explanation: outcome.explanation, reason: outcome.reason } };
}

describe.skipIf(suitePath === null)("RFC 7208 SPF conformance (openspf test suite)", () => {
  const docs = suitePath === null ? [] : loadSuite(suitePath);

  it("reads every document of the suite", () => {
    const total = docs.reduce((n, d) => n + Object.keys(d.tests).length, 0);
    expect(docs.length).toBeGreaterThan(10);
    expect(total).toBeGreaterThanOrEqual(200);
  });

  it(`passes at least ${CONFORMANCE_TARGET * 100} % of the applicable tests`, async () => {
    const results: CaseResult[] = [];
    for (const doc of docs) {
      for (const [name, test] of Object.entries(doc.tests)) {
        const { pass, got } = await runTest(doc, test);
        results.push({ name, pass, ...(pass ? {} : { got }) });
      }
    }
    const report = conformanceReport("RFC 7208 SPF", results, RFC7208_EXCLUDED);
    printConformance(report);
    for (const failure of report.failures)
      console.log(`[conformance]   failed ${failure.name}: ${JSON.stringify(failure.got)}`);
    expect(Object.keys(RFC7208_EXCLUDED).every((name) => results.some((r) => r.name === name))).toBe(true);
    expect(report.passed / report.applicable).toBeGreaterThanOrEqual(CONFORMANCE_TARGET);
  });
});

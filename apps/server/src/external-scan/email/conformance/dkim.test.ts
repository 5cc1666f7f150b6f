import { describe, expect, it } from "vitest";
import { CONFORMANCE_TARGET, printConformance, runConformanceTables } from "../../test-support/conformance.js";
import { parseDkimKeyRecord } from "../dkim-record.js";
import { strictTagList } from "../tag-list.js";
import { DKIMPY, type DkimInput, type DkimVerdict, GO_MSGAUTH_DKIM_KEYS, MAILAUTH_DKIM_KEYS } from "./dkim-tables.js";

const outcome = (input: DkimInput) =>
  "record" in input ? parseDkimKeyRecord(input.record) : strictTagList(input.tagList);

function dkimAgrees(input: DkimInput, expected: DkimVerdict): boolean {
  if ("record" in input) {
    const key = parseDkimKeyRecord(input.record);
    if (!("key" in expected)) return false;
    if (expected.key === "unusable") return !key.usable;
    if (expected.key === "weak") return key.usable && key.rsaBits !== null && key.rsaBits < 1024;
    const { key: _, ...facts } = expected;
    return key.usable && Object.entries(facts).every(([k, v]) => key[k as keyof typeof key] === v);
  }
  const list = strictTagList(input.tagList);
  if ("tagListError" in expected) return list.problems.length > 0;
  if (!("tags" in expected)) return false;
  return (
    list.problems.length === 0 &&
    Object.entries(expected.tags).every(([k, v]) => list.tags.get(k) === v) &&
    (expected.count ?? Object.keys(expected.tags).length) === list.tags.size
  );
}

describe("DKIM key record conformance (mailauth, dkimpy, go-msgauth)", () => {
  it(`agrees with at least ${CONFORMANCE_TARGET * 100} % of the applicable cases`, async () => {
    const tables = [MAILAUTH_DKIM_KEYS, DKIMPY, GO_MSGAUTH_DKIM_KEYS];
    const report = await runConformanceTables("DKIM key records", tables, dkimAgrees, outcome);
    printConformance(report);
    expect(report.failures).toEqual([]);
    expect(report.passed / report.applicable).toBeGreaterThanOrEqual(CONFORMANCE_TARGET);
  });
});

import { FindingInputSchema } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import type { DnsAnswer } from "../io/types.js";
import { type DnsFixture, fixtureTxt, loadDnsFixture } from "../test-support/dns-fixture.js";
import { evaluateSpf, SPF_LOOKUP_LIMIT } from "./spf-check.js";
import { buildSpfTree, countSpfLookups, effectiveAllQualifier, pendingSpfNames } from "./spf-tree.js";

const treeOf = (fixture: DnsFixture) => buildSpfTree(fixture.domain, (name) => fixtureTxt(fixture, name));
const checkIds = (fixture: DnsFixture) => evaluateSpf(fixture.domain, treeOf(fixture)).map((f) => f.check_id);

/** A fixture from inline records, for cases too small to deserve a file. */
const zone = (domain: string, txt: Record<string, string[]>): DnsFixture => ({ provenance: "inline", domain, txt });

describe("SPF tree and lookup count", () => {
  it("follows Google Workspace's nested includes: 4 lookups, ending in ~all", () => {
    const tree = treeOf(loadDnsFixture("google-workspace.json"));
    expect(tree.state).toBe("record");
    expect(countSpfLookups(tree)).toEqual({ count: 4, complete: true });
    expect(effectiveAllQualifier(tree)).toBe("~");
  });

  it("counts every provider a marketing-heavy record includes, past the limit", () => {
    const tree = treeOf(loadDnsFixture("too-many-lookups.json"));
    const { count, complete } = countSpfLookups(tree);
    // 8 includes + a + mx in the record, 3 more inside _spf.google.com, 1 exists inside _spf.salesforce.com.
    expect(count).toBe(14);
    expect(count).toBeGreaterThan(SPF_LOOKUP_LIMIT);
    expect(complete).toBe(true);
  });

  it("asks for names level by level: only the root first, then its includes", () => {
    const known = new Map<string, DnsAnswer<string[]>>();
    const fixture = loadDnsFixture("google-workspace.json");
    expect(pendingSpfNames(buildSpfTree(fixture.domain, (n) => known.get(n)))).toEqual([fixture.domain]);
    known.set(fixture.domain, fixtureTxt(fixture, fixture.domain));
    expect(pendingSpfNames(buildSpfTree(fixture.domain, (n) => known.get(n)))).toEqual(["_spf.google.com"]);
  });

  it("stops at include loops instead of recursing forever", () => {
    const fixture = zone("loop.example", {
      "loop.example": ["v=spf1 include:a.loop.example -all"],
      "a.loop.example": ["v=spf1 include:loop.example -all"],
    });
    const tree = treeOf(fixture);
    expect(tree.children[0]?.children[0]?.state).toBe("loop");
    expect(checkIds(fixture)).toContain("email.spf.broken_include");
  });

  it("bounds a record that fans out without end and still reports it over the limit", () => {
    // Every name includes ten more: the walk must stop on its node budget.
    const fan = (name: string) => [
      `v=spf1 ${Array.from({ length: 10 }, (_, i) => `include:n${i}.${name}`).join(" ")} -all`,
    ];
    const tree = buildSpfTree("fan.example", (name) => ({ ok: true, records: fan(name) }));
    expect(countSpfLookups(tree).count).toBeGreaterThan(SPF_LOOKUP_LIMIT);
  });

  it("takes the final qualifier from the redirect target when the record has no all", () => {
    const fixture = zone("redirected.example", {
      "redirected.example": ["v=spf1 redirect=_spf.redirected.example"],
      "_spf.redirected.example": ["v=spf1 ip4:192.0.2.0/24 -all"],
    });
    const tree = treeOf(fixture);
    expect(effectiveAllQualifier(tree)).toBe("-");
    expect(countSpfLookups(tree).count).toBe(1);
    expect(checkIds(fixture)).toEqual([]);
  });
});

describe("evaluateSpf", () => {
  it("passes Microsoft 365's -all record", () => {
    expect(checkIds(loadDnsFixture("microsoft-365.json"))).toEqual([]);
  });

  it("flags ~all as a soft fail (low)", () => {
    const findings = evaluateSpf("brightside-clinic.example", treeOf(loadDnsFixture("google-workspace.json")));
    expect(findings.map((f) => [f.check_id, f.severity])).toEqual([["email.spf.softfail_all", "low"]]);
  });

  it("flags a record over 10 lookups as high, with the count in the evidence", () => {
    const fixture = loadDnsFixture("too-many-lookups.json");
    const finding = evaluateSpf(fixture.domain, treeOf(fixture)).find(
      (f) => f.check_id === "email.spf.too_many_lookups",
    );
    expect(finding?.severity).toBe("high");
    expect(finding?.evidence).toMatchObject({ lookups: 14, limit: 10 });
  });

  it("reports two SPF records as multiple_records and nothing else", () => {
    expect(checkIds(loadDnsFixture("neglected.json"))).toEqual(["email.spf.multiple_records"]);
  });

  it.each([
    ["v=spf1 +all", "email.spf.pass_all", "critical"],
    ["v=spf1 include:_spf.mailhost.example all", "email.spf.pass_all", "critical"],
    ["v=spf1 mx ?all", "email.spf.neutral_all", "medium"],
    ["v=spf1 mx", "email.spf.no_all", "medium"],
    ["v=spf1 ip4:192.0.2.300 -all", "email.spf.invalid", "high"],
  ])("judges %s as %s (%s)", (record, checkId, severity) => {
    const fixture = zone("clinic.example", {
      "clinic.example": [record],
      "_spf.mailhost.example": ["v=spf1 ip4:192.0.2.0/24 -all"],
    });
    const findings = evaluateSpf(fixture.domain, treeOf(fixture));
    expect(findings.map((f) => [f.check_id, f.severity])).toEqual([[checkId, severity]]);
  });

  it("reports a missing record as high", () => {
    const findings = evaluateSpf("nospf.example", treeOf(zone("nospf.example", { "nospf.example": ["MS=ms123"] })));
    expect(findings.map((f) => [f.check_id, f.severity])).toEqual([["email.spf.missing", "high"]]);
  });

  it("reports an include whose target publishes no SPF record", () => {
    const fixture = zone("clinic.example", { "clinic.example": ["v=spf1 include:gone.example -all"] });
    const finding = evaluateSpf(fixture.domain, treeOf(fixture))[0];
    expect(finding?.check_id).toBe("email.spf.broken_include");
    expect(finding?.evidence).toEqual({ targets: [{ domain: "gone.example", via: "include", state: "none" }] });
  });

  it("builds schema-valid findings with stable ids", () => {
    const fixture = loadDnsFixture("too-many-lookups.json");
    const first = evaluateSpf(fixture.domain, treeOf(fixture));
    for (const f of first) expect(() => FindingInputSchema.parse(f)).not.toThrow();
    expect(evaluateSpf(fixture.domain, treeOf(fixture)).map((f) => f.id)).toEqual(first.map((f) => f.id));
    expect(first[0]?.id).toBe("email.spf.too_many_lookups:valleyview-health.example");
  });
});

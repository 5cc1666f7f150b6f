import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DnsAnswer } from "../io/types.js";
import { fixtureTxt, loadDnsFixture } from "../test-support/dns-fixture.js";
import { evaluateDmarc } from "./dmarc-check.js";
import { parseDmarcRecord, selectDmarcRecords } from "./dmarc-record.js";

describe("parseDmarcRecord", () => {
  // RFC 7489 Appendix B.2 examples.
  it("reads the RFC 7489 examples", () => {
    expect(parseDmarcRecord("v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com")).toEqual({
      ok: true,
      warnings: [],
      problems: [],
      fallback: false,
      record: {
        p: "none",
        sp: null,
        pct: 100,
        rua: ["mailto:dmarc-feedback@example.com"],
        ruf: [],
        adkim: "r",
        aspf: "r",
        testing: false,
      },
    });
    const b23 = parseDmarcRecord(
      "v=DMARC1; p=quarantine; rua=mailto:dmarc-feedback@example.com; ruf=mailto:auth-reports@thirdparty.example.net; pct=25",
    );
    expect(b23).toMatchObject({
      ok: true,
      record: { p: "quarantine", pct: 25, ruf: ["mailto:auth-reports@thirdparty.example.net"] },
    });
  });

  it("accepts a size limit on report URIs and loose spacing", () => {
    expect(
      parseDmarcRecord("v=DMARC1 ;p = reject ; rua=mailto:a@example.org!10m, mailto:b@example.net ;"),
    ).toMatchObject({
      ok: true,
      warnings: [],
      record: { p: "reject", rua: ["mailto:a@example.org!10m", "mailto:b@example.net"] },
    });
  });

  it("reads DMARCbis t=y", () => {
    expect(parseDmarcRecord("v=DMARC1; p=reject; t=y")).toMatchObject({ ok: true, record: { testing: true } });
  });

  it.each([
    ["v=DMARC1", /p= tag is missing/],
    ["v=DMARC1; p=monitor", /p=monitor is not none, quarantine or reject/],
    ["v=DMARC1; p=reject; sp=always", /sp=always/],
    ["p=reject; v=DMARC1", /must come first/],
  ])("rejects %s (no usable policy and no rua to fall back on)", (record, problem) => {
    const parsed = parseDmarcRecord(record);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join("; ")).toMatch(problem);
  });

  it.each([
    ["v=DMARC1; p=reject; pct=150", /pct=150/],
    ["v=DMARC1; p=reject; garbage", /not a tag=value pair/],
    ["v=DMARC1; p=reject; adkim=x", /adkim=x/],
  ])("discards errors outside v and p in favour of the defaults (RFC 7489 §6.3): %s", (record, warning) => {
    const parsed = parseDmarcRecord(record);
    expect(parsed).toMatchObject({ ok: true, fallback: false, record: { p: "reject", pct: 100, adkim: "r" } });
    if (parsed.ok) expect(parsed.warnings.join("; ")).toMatch(warning);
  });

  it("warns about report addresses that are not URIs and does not count them as destinations", () => {
    expect(parseDmarcRecord("v=DMARC1; p=reject; rua=dmarc@example.org")).toMatchObject({
      ok: true,
      record: { rua: [] },
      warnings: ['rua destination "dmarc@example.org" is not a URI'],
    });
    expect(parseDmarcRecord("v=DMARC1; p=reject; rua=https://reports.example.net/d")).toMatchObject({
      ok: true,
      record: { rua: ["https://reports.example.net/d"] },
      warnings: [],
    });
  });

  // Where checkdmarc reads a record differently from RFC 7489, the RFC decides (CHECKS.md, "How records and headers
  // are read"): each case below is one the RFC backs.
  it("does not take v=dmarc1 for a DMARC record: the version value is case-sensitive (RFC 7489 §6.4 ABNF)", () => {
    expect(selectDmarcRecords(["v=dmarc1; p=reject", "v=Dmarc1; p=reject"])).toEqual([]);
    expect(selectDmarcRecords(["V=DMARC1; p=reject", "v = DMARC1 ;p=reject"])).toHaveLength(2);
    expect(
      evaluateDmarc("clinic.example", { ok: true, records: ["v=dmarc1; p=reject"] }).map((f) => f.check_id),
    ).toEqual(["email.dmarc.missing"]);
  });

  it("gives no usable policy for conflicting repeated p= tags", () => {
    expect(parseDmarcRecord("v=DMARC1; p=reject; p=none")).toMatchObject({
      ok: false,
      problems: ["p= is given 2 times with different values (reject, none)"],
    });
    expect(evaluateDmarc("clinic.example", { ok: true, records: ["v=DMARC1; p=reject; p=none"] })[0]).toMatchObject({
      check_id: "email.dmarc.invalid",
    });
    // The same value twice is still one policy (with a warning).
    expect(parseDmarcRecord("v=DMARC1; p=reject; p=REJECT")).toMatchObject({ ok: true, record: { p: "reject" } });
  });

  it("applies p=none when p is unusable but rua is valid (RFC 7489 §6.6.3 step 6)", () => {
    for (const record of [
      "v=DMARC1; p=monitor; rua=mailto:d@clinic.example",
      "v=DMARC1; rua=mailto:d@clinic.example",
      "v=DMARC1; p=reject; sp=always; rua=mailto:d@clinic.example",
      "v=DMARC1; p=reject; p=quarantine; rua=mailto:d@clinic.example",
    ]) {
      expect([record, parseDmarcRecord(record)]).toMatchObject([
        record,
        { ok: true, fallback: true, record: { p: "none" } },
      ]);
      const findings = evaluateDmarc("clinic.example", { ok: true, records: [record] });
      expect([record, findings.map((f) => [f.check_id, f.severity])]).toEqual([
        record,
        [["email.dmarc.policy_none", "medium"]],
      ]);
    }
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string(), (tail) => {
        expect(typeof parseDmarcRecord(`v=DMARC1; ${tail}`).ok).toBe("boolean");
      }),
    );
  });
});

describe("selectDmarcRecords", () => {
  it("keeps TXT strings that start with the v=DMARC1 tag", () => {
    expect(selectDmarcRecords(["v=DMARC1; p=none", "v=spf1 -all", "some text v=DMARC1", "v=DMARC1"])).toEqual([
      "v=DMARC1; p=none",
      "v=DMARC1",
    ]);
  });
});

describe("evaluateDmarc", () => {
  const evaluate = (file: string) => {
    const fixture = loadDnsFixture(file);
    return evaluateDmarc(fixture.domain, fixtureTxt(fixture, `_dmarc.${fixture.domain}`));
  };

  it("passes an enforced policy with reports (Google Workspace practice, p=quarantine)", () => {
    expect(evaluate("google-workspace.json")).toEqual([]);
  });

  it("flags p=none as monitoring only (Microsoft 365 practice)", () => {
    expect(evaluate("microsoft-365.json").map((f) => [f.check_id, f.severity])).toEqual([
      ["email.dmarc.policy_none", "medium"],
    ]);
  });

  it("flags pct, t=y and sp=none on an otherwise enforced policy", () => {
    expect(evaluate("too-many-lookups.json").map((f) => f.check_id)).toEqual([
      "email.dmarc.partial_pct",
      "email.dmarc.testing_mode",
      "email.dmarc.subdomain_policy_none",
    ]);
  });

  it("reports an invalid policy value with a report address as p=none, which receivers apply (§6.6.3)", () => {
    const [finding] = evaluate("neglected.json");
    expect(finding?.check_id).toBe("email.dmarc.policy_none");
    expect(finding?.severity).toBe("medium");
    expect(finding?.evidence).toMatchObject({
      problems: ["p=monitor is not none, quarantine or reject"],
      applied: "p=none",
    });
  });

  it("reports an invalid policy value without a report address as invalid (high)", () => {
    const [finding] = evaluateDmarc("clinic.example", { ok: true, records: ["v=DMARC1; p=monitor"] });
    expect(finding?.check_id).toBe("email.dmarc.invalid");
    expect(finding?.severity).toBe("high");
  });

  it("reports a missing record as high whether the name is absent or empty", () => {
    const answers: DnsAnswer<string[]>[] = [
      { ok: false, code: "nxdomain" },
      { ok: true, records: ["unrelated"] },
    ];
    for (const answer of answers) {
      const findings = evaluateDmarc("clinic.example", answer);
      expect(findings.map((f) => [f.check_id, f.severity])).toEqual([["email.dmarc.missing", "high"]]);
    }
  });

  it("reports two DMARC records, which receivers ignore", () => {
    const findings = evaluateDmarc("clinic.example", { ok: true, records: ["v=DMARC1; p=reject", "v=DMARC1; p=none"] });
    expect(findings.map((f) => f.check_id)).toEqual(["email.dmarc.multiple_records"]);
  });

  it("flags a policy without aggregate reports", () => {
    const findings = evaluateDmarc("clinic.example", { ok: true, records: ["v=DMARC1; p=reject"] });
    expect(findings.map((f) => [f.check_id, f.severity])).toEqual([["email.dmarc.no_reports", "low"]]);
  });
});

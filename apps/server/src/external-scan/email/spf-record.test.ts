import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ownLookupCount, parseSpfRecord, selectSpfRecords } from "./spf-record.js";

describe("selectSpfRecords", () => {
  it("keeps only v=spf1 records among a domain's TXT strings", () => {
    const txt = [
      "google-site-verification=abc",
      "v=spf1 include:_spf.google.com ~all",
      "v=spf10 -all", // not SPF version 1
      "MS=ms12345678",
      "V=SPF1 -all", // the version tag is case-insensitive
    ];
    expect(selectSpfRecords(txt)).toEqual(["v=spf1 include:_spf.google.com ~all", "V=SPF1 -all"]);
  });

  it("accepts the bare version (a record that only says v=spf1)", () => {
    expect(selectSpfRecords(["v=spf1"])).toEqual(["v=spf1"]);
  });

  it("needs v=spf1 at the very start, followed by a space or the end (§4.5)", () => {
    expect(selectSpfRecords([" v=spf1 -all", "v=spf1\t-all", "v=spf1-all", "v=spf1 "])).toEqual(["v=spf1 "]);
  });
});

describe("parseSpfRecord", () => {
  // RFC 7208 Appendix A examples.
  it.each([
    "v=spf1 +all",
    "v=spf1 a -all",
    "v=spf1 a:example.org -all",
    "v=spf1 mx -all",
    "v=spf1 mx:example.org -all",
    "v=spf1 mx mx:example.org -all",
    "v=spf1 mx/30 mx:example.org/30 -all",
    "v=spf1 ptr -all",
    "v=spf1 ip4:192.0.2.128/28 -all",
    "v=spf1 include:example.com include:example.net -all",
    "v=spf1 redirect=example.org",
    "v=spf1 mx:example.com -all",
    "v=spf1 -include:ip4._spf.%{d} -include:ptr._spf.%{d} +all",
    "v=spf1 exists:%{ir}.%{l1r+-}._spf.%{d} -all",
    "v=spf1 ip6:2001:db8::/32 a//64 mx:example.net/24//64 ?all",
  ])("parses %s", (record) => {
    expect(parseSpfRecord(record)).toMatchObject({ ok: true });
  });

  it("reads qualifiers, mechanisms and modifiers", () => {
    const parsed = parseSpfRecord("v=spf1 ip4:192.0.2.0/24 include:_spf.google.com ~all exp=explain.example.org");
    expect(parsed).toEqual({
      ok: true,
      record: {
        mechanisms: [
          { kind: "ip4", qualifier: "+", network: "192.0.2.0/24", address: "192.0.2.0", prefix: 24 },
          { kind: "include", qualifier: "+", domain: "_spf.google.com" },
          { kind: "all", qualifier: "~" },
        ],
        redirect: null,
        exp: "explain.example.org",
      },
    });
  });

  it.each([
    ["v=spf1 ip4:192.0.2.300 -all", /not an IPv4 address/],
    ["v=spf1 ip4:192.0.2.0/33 -all", /prefix length/],
    ["v=spf1 ip6:192.0.2.1 -all", /not an IPv6 address/],
    ["v=spf1 include: -all", /empty domain/],
    ["v=spf1 include -all", /include needs ":" and a domain/],
    ["v=spf1 a:example -all", /valid top-level label/],
    ["v=spf1 include:example.123 -all", /valid top-level label/],
    ["v=spf1 mx:example.com/24/ -all", /valid top-level label/],
    ["v=spf1 all:example.com", /all takes no argument/],
    ["v=spf1 ipv4:192.0.2.1 -all", /unknown mechanism "ipv4"/],
    ["v=spf1 redirect=a.example.org redirect=b.example.org", /redirect= appears more than once/],
    ["v=spf1 include:%{z}.example.org -all", /unknown macro letter "z"/],
    ["spf1 -all", /does not start with v=spf1/],
  ])("reports the permerror in %s", (record, problem) => {
    const parsed = parseSpfRecord(record);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join("; ")).toMatch(problem);
  });

  it("ignores unknown modifiers (RFC 7208 §6)", () => {
    expect(parseSpfRecord("v=spf1 -all moo=cow.example.org")).toMatchObject({ ok: true });
  });

  // Where this parser and the openspf RFC 7208 test suite part ways, the RFC's ABNF decides (CHECKS.md, "How records
  // and headers are read"): each case below is one the ABNF backs.
  it.each([
    ["v=spf1 ip4:192.0.2.5\n include:spf.protection.outlook.com ~all", /U\+000a/],
    ["v=spf1 a:ctrl.example.com\rptr -all", /U\+000d/],
    ["v=spf1 a\t-all", /U\+0009/],
  ])("does not take CR, LF or tab for a term separator (§4.6.1): %j", (record, problem) => {
    const parsed = parseSpfRecord(record);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join("; ")).toMatch(problem);
  });

  it("refuses leading zeros in a CIDR length (§5.6 ip4-cidr-length): ip4:1.2.3.4/032", () => {
    expect(parseSpfRecord("v=spf1 ip4:1.2.3.4/032 -all")).toMatchObject({ ok: false });
    expect(parseSpfRecord("v=spf1 ip6:2001:db8::/032 -all")).toMatchObject({ ok: false });
    expect(parseSpfRecord("v=spf1 a/024 -all")).toMatchObject({ ok: false });
    expect(parseSpfRecord("v=spf1 ip4:1.2.3.4/32 ip4:1.2.3.0/0 -all")).toMatchObject({ ok: true });
  });

  it('checks the macro syntax of unknown modifiers (unknown-modifier = name "=" macro-string)', () => {
    expect(parseSpfRecord("v=spf1 -all foo=%abc")).toMatchObject({ ok: false });
    expect(parseSpfRecord("v=spf1 -all foo=%{q}")).toMatchObject({ ok: false });
    expect(parseSpfRecord("v=spf1 default=+")).toMatchObject({ ok: true });
  });

  it("allows the c, r and t macro letters only in explanation text (§7.1)", () => {
    for (const record of [
      "v=spf1 -all exp=%{r}.example.com",
      "v=spf1 a:%{c}.example.com -all",
      "v=spf1 exists:%{t}.example.com -all",
      "v=spf1 -all foo=%{c}",
    ]) {
      const parsed = parseSpfRecord(record);
      expect([record, parsed.ok]).toEqual([record, false]);
    }
    expect(parseSpfRecord("v=spf1 -all exp=%{ir}.%{v}.%{d2}")).toMatchObject({ ok: true });
  });

  it("accepts any visible character but % in a domain-spec: a:foo:bar/baz.example.com (§7.1)", () => {
    expect(parseSpfRecord("v=spf1 a:foo:bar/baz.example.com -all")).toMatchObject({
      ok: true,
      record: { mechanisms: [{ kind: "a", domain: "foo:bar/baz.example.com", cidr4: null, cidr6: null }, {}] },
    });
    expect(parseSpfRecord("v=spf1 mx:foo:bar/baz.example.com/24//64")).toMatchObject({
      ok: true,
      record: { mechanisms: [{ kind: "mx", domain: "foo:bar/baz.example.com", cidr4: 24, cidr6: 64 }] },
    });
  });

  it("validates the domain-end of a domain-spec that holds macros (§7.1 domain-end)", () => {
    expect(parseSpfRecord("v=spf1 include:%{d}.123 -all")).toMatchObject({ ok: false });
    expect(parseSpfRecord("v=spf1 exists:%{i}.-bad -all")).toMatchObject({ ok: false });
    expect(parseSpfRecord("v=spf1 exists:foo%{d}:8080 -all")).toMatchObject({ ok: false });
    expect(parseSpfRecord("v=spf1 exists:%{i}._spf.%{d} redirect=%{d}.d.spf.example.com. -all")).toMatchObject({
      ok: true,
    });
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string(), (tail) => {
        const result = parseSpfRecord(`v=spf1 ${tail}`);
        expect(typeof result.ok).toBe("boolean");
      }),
    );
  });
});

describe("ownLookupCount", () => {
  const count = (record: string) => {
    const parsed = parseSpfRecord(record);
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    return ownLookupCount(parsed.record);
  };

  it("counts include, a, mx, ptr and exists but not ip4, ip6 or all", () => {
    expect(count("v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 -all")).toBe(0);
    expect(count("v=spf1 a mx ptr include:example.com exists:%{i}.example.net -all")).toBe(5);
  });

  it("counts redirect only when there is no all mechanism (RFC 7208 §6.1)", () => {
    expect(count("v=spf1 mx redirect=example.org")).toBe(2);
    expect(count("v=spf1 mx -all redirect=example.org")).toBe(1);
  });
});

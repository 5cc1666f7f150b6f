import { describe, expect, it } from "vitest";
import type { DnsAnswer } from "../io/types.js";
import { type DnsFixture, fixtureTxt, loadDnsFixture } from "../test-support/dns-fixture.js";
import { COMMON_DKIM_SELECTORS, type DkimEvidence, evaluateDkim, foundDkimKeys, sendsNoMail } from "./dkim-check.js";
import { isDkimKeyRecord, parseDkimKeyRecord } from "./dkim-record.js";

function evidenceFrom(fixture: DnsFixture): DkimEvidence {
  return {
    domainkey: fixtureTxt(fixture, `_domainkey.${fixture.domain}`),
    selectors: Object.fromEntries(
      COMMON_DKIM_SELECTORS.map((s) => [s, fixtureTxt(fixture, `${s}._domainkey.${fixture.domain}`)]),
    ),
  };
}

describe("DKIM key records", () => {
  it("reads the RSA key size from the published public key", () => {
    const gw = loadDnsFixture("google-workspace.json");
    const answer = fixtureTxt(gw, `google._domainkey.${gw.domain}`);
    const record = answer.ok ? answer.records[0] : undefined;
    expect(isDkimKeyRecord(record!)).toBe(true);
    expect(parseDkimKeyRecord(record!)).toEqual({
      keyType: "rsa",
      revoked: false,
      rsaBits: 2048,
      testing: false,
      usable: true,
      problems: [],
    });
  });

  it("treats an empty p= as a revoked key and reads t=y", () => {
    expect(parseDkimKeyRecord("v=DKIM1; k=rsa; p=")).toMatchObject({ revoked: true, rsaBits: null });
    expect(parseDkimKeyRecord("v=DKIM1; t=y:s; p=")).toMatchObject({ testing: true });
  });

  it("does not claim a size for Ed25519 keys or undecodable keys", () => {
    expect(parseDkimKeyRecord("v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=")).toMatchObject({
      keyType: "ed25519",
      rsaBits: null,
    });
    expect(parseDkimKeyRecord("v=DKIM1; p=not-base64-key")).toMatchObject({ rsaBits: null });
  });

  // Whitespace around "=" and ":" is folding whitespace (RFC 6376 §3.2, §3.6.1 key-t-tag), so a key record written
  // with it is read as receivers read it (CHECKS.md, "How records and headers are read").
  it("reads tags with whitespace around = and around the : of flag lists", () => {
    const gw = loadDnsFixture("google-workspace.json");
    const answer = fixtureTxt(gw, `google._domainkey.${gw.domain}`);
    const key = (answer.ok ? answer.records[0]! : "").replace(/^.*p=/, "");
    const folded = `${key.slice(0, 100)} \r\n\t${key.slice(100)}`;
    const record = `v = DKIM1 ; k = rsa ; t = y : s ; h = sha1 : sha256 ; s = email ; p = ${folded}`;
    expect(isDkimKeyRecord(record)).toBe(true);
    expect(parseDkimKeyRecord(record)).toMatchObject({ usable: true, rsaBits: 2048, testing: true, problems: [] });
  });

  it("does not mistake other TXT records for keys", () => {
    expect(isDkimKeyRecord("v=spf1 -all")).toBe(false);
    expect(isDkimKeyRecord("k=rsa; p=MIIBIjANBg")).toBe(true);
  });
});

describe("evaluateDkim", () => {
  it("passes a 2048-bit Google Workspace key", () => {
    const gw = loadDnsFixture("google-workspace.json");
    expect(foundDkimKeys(evidenceFrom(gw)).map((k) => k.selector)).toEqual(["google"]);
    expect(evaluateDkim(gw.domain, evidenceFrom(gw))).toEqual([]);
  });

  it("flags a tenant that still publishes a 1024-bit selector (low)", () => {
    const m365 = loadDnsFixture("microsoft-365.json");
    const findings = evaluateDkim(m365.domain, evidenceFrom(m365));
    expect(findings.map((f) => [f.check_id, f.severity])).toEqual([["email.dkim.short_key", "low"]]);
    expect(findings[0]?.evidence).toEqual({ keys: [{ selector: "selector2", rsa_bits: 1024 }] });
  });

  it("flags a 512-bit key as high and a t=y key as testing", () => {
    const heavy = loadDnsFixture("too-many-lookups.json");
    expect(evaluateDkim(heavy.domain, evidenceFrom(heavy)).map((f) => [f.check_id, f.severity])).toEqual([
      ["email.dkim.weak_key", "high"],
      ["email.dkim.testing_mode", "low"],
    ]);
  });

  it("reports no DKIM when _domainkey does not exist (NXDOMAIN)", () => {
    const neglected = loadDnsFixture("neglected.json");
    expect(evaluateDkim(neglected.domain, evidenceFrom(neglected)).map((f) => [f.check_id, f.severity])).toEqual([
      ["email.dkim.not_found", "medium"],
    ]);
  });

  it("only notes keys under unguessable selectors when _domainkey exists (NODATA)", () => {
    const nodata: DnsAnswer<string[]> = { ok: false, code: "nodata" };
    const evidence: DkimEvidence = {
      domainkey: nodata,
      selectors: Object.fromEntries(COMMON_DKIM_SELECTORS.map((s) => [s, { ok: false, code: "nxdomain" }])),
    };
    expect(evaluateDkim("clinic.example", evidence).map((f) => [f.check_id, f.severity])).toEqual([
      ["email.dkim.unknown_selector", "info"],
    ]);
  });
});

// A DKIM key counts only if it decodes to a real RSA or Ed25519 key (CHECKS.md, "How records and headers are read").
describe("keys that are not valid RSA or Ed25519 keys", () => {
  const gw = loadDnsFixture("google-workspace.json");
  const good = fixtureTxt(gw, `google._domainkey.${gw.domain}`);
  const rsaKey = (good.ok ? good.records[0]! : "").replace(/^.*p=/, "");
  const ed25519Raw = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=";
  const evidenceWith = (record: string): DkimEvidence => ({
    domainkey: { ok: false, code: "nodata" },
    selectors: Object.fromEntries(
      COMMON_DKIM_SELECTORS.map((s) => [
        s,
        s === "google" ? { ok: true, records: [record] } : { ok: false, code: "nxdomain" },
      ]),
    ),
  });

  it.each([
    ["v=DKIM1; p=not-base64-key", /not base64/],
    ["v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ==", /not an RSA public key/],
    [`v=DKIM1; k=rsa; p=${ed25519Raw}`, /not an RSA public key/],
    [`v=DKIM1; k=ed25519; p=${rsaKey}`, /an Ed25519 key is 32/],
    [`v=DKIM1; k=dsa; p=${rsaKey}`, /k=dsa/],
  ])("does not count %s as a working key", (record, problem) => {
    const key = parseDkimKeyRecord(record);
    expect(key.usable).toBe(false);
    expect(key.problems.join("; ")).toMatch(problem);
    const findings = evaluateDkim("clinic.example", evidenceWith(record));
    expect(findings.map((f) => [f.check_id, f.severity])).toEqual([["email.dkim.invalid_key", "medium"]]);
  });

  it("counts an Ed25519 key of 32 bytes and an RSA key as working keys", () => {
    expect(evaluateDkim("clinic.example", evidenceWith(`v=DKIM1; k=ed25519; p=${ed25519Raw}`))).toEqual([]);
    expect(evaluateDkim("clinic.example", evidenceWith(`v=DKIM1; p=${rsaKey}`))).toEqual([]);
  });
});

describe("sendsNoMail", () => {
  it("recognises a parked domain (v=spf1 -all and no MX)", () => {
    expect(sendsNoMail(["v=spf1 -all"], false)).toBe(true);
    expect(sendsNoMail(["v=spf1 -all"], true)).toBe(false);
    expect(sendsNoMail(["v=spf1 mx -all"], false)).toBe(false);
    expect(sendsNoMail([], false)).toBe(false);
  });
});

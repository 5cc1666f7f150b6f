import { describe, expect, it } from "vitest";
import type { DnsAnswer, MxRecord } from "../io/types.js";
import { fixtureMx, fixtureTxt, loadDnsFixture } from "../test-support/dns-fixture.js";
import { evaluateMtaSts } from "./mta-sts-check.js";
import { parseMtaStsRecord } from "./mta-sts-record.js";
import { evaluateMx, isNullMx, mailExchangers } from "./mx-check.js";
import { evaluateTlsRpt } from "./tls-rpt-check.js";
import { isValidTlsRptRecord } from "./tls-rpt-record.js";

const gw = loadDnsFixture("google-workspace.json");
const gwMx = fixtureMx(gw, gw.domain);
const noMx: DnsAnswer<MxRecord[]> = { ok: false, code: "nodata" };

describe("MX", () => {
  it("orders Google's five MX hosts by preference and finds nothing wrong", () => {
    expect(mailExchangers(gwMx).map((m) => m.exchange)).toEqual([
      "aspmx.l.google.com",
      "alt1.aspmx.l.google.com",
      "alt2.aspmx.l.google.com",
      "alt3.aspmx.l.google.com",
      "alt4.aspmx.l.google.com",
    ]);
    expect(evaluateMx(gw.domain, gwMx)).toEqual([]);
  });

  it("states a domain without MX, and a null MX (RFC 7505), as information", () => {
    expect(evaluateMx("web-only.example", noMx).map((f) => [f.check_id, f.severity])).toEqual([
      ["email.mx.missing", "info"],
    ]);
    const nullMx: DnsAnswer<MxRecord[]> = { ok: true, records: [{ exchange: "", priority: 0 }] };
    expect(isNullMx(nullMx.ok ? nullMx.records : [])).toBe(true);
    expect(evaluateMx("parked.example", nullMx).map((f) => f.check_id)).toEqual(["email.mx.null_mx"]);
  });
});

describe("MTA-STS", () => {
  it("accepts the Google Workspace practice's record", () => {
    expect(parseMtaStsRecord("v=STSv1; id=20250115T093000")).toEqual({ ok: true, id: "20250115T093000" });
    expect(evaluateMtaSts(gw.domain, gwMx, fixtureTxt(gw, `_mta-sts.${gw.domain}`))).toEqual([]);
  });

  it("flags a missing record only for a domain that receives mail", () => {
    const m365 = loadDnsFixture("microsoft-365.json");
    const findings = evaluateMtaSts(
      m365.domain,
      fixtureMx(m365, m365.domain),
      fixtureTxt(m365, `_mta-sts.${m365.domain}`),
    );
    expect(findings.map((f) => [f.check_id, f.severity])).toEqual([["email.mta_sts.missing", "low"]]);
    expect(evaluateMtaSts("web-only.example", noMx, { ok: false, code: "nxdomain" })).toEqual([]);
  });

  it.each([
    ["v=STSv1;", /id= must be/],
    ["v=STSv1; id=2025-01-15", /id= must be/],
    ["v=STSv1; id=abcdefghijklmnopqrstuvwxyz0123456789", /id= must be/],
  ])("rejects %s", (record, problem) => {
    const parsed = parseMtaStsRecord(record);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(problem);
    expect(evaluateMtaSts(gw.domain, gwMx, { ok: true, records: [record] }).map((f) => f.check_id)).toEqual([
      "email.mta_sts.invalid",
    ]);
  });
});

// Extension fields must follow the ABNF (RFC 8461 §3.1 sts-extension, RFC 8460 §3 tlsrpt-extension), not a looser
// reading: the external scan reads records as receivers do (CHECKS.md, "How records and headers are read").
describe("MTA-STS and TLS-RPT extension syntax", () => {
  it.each([
    "v=STSv1; id=20250115; note=two words",
    "v=STSv1; id=20250115; =value",
    "v=STSv1; id=20250115; ext=a=b",
    `v=STSv1; id=20250115; ${"x".repeat(33)}=1`,
    "v=STSv1; id = 20250115",
    "v=STSv1;; id=20250115",
  ])("rejects the MTA-STS record %j", (record) => {
    expect(parseMtaStsRecord(record).ok).toBe(false);
    expect(evaluateMtaSts(gw.domain, gwMx, { ok: true, records: [record] }).map((f) => f.check_id)).toEqual([
      "email.mta_sts.invalid",
    ]);
  });

  it("accepts valid extension fields and trailing delimiters", () => {
    expect(parseMtaStsRecord("v=STSv1; id=20250115; ext.1=a,b:c;")).toEqual({ ok: true, id: "20250115" });
    expect(isValidTlsRptRecord("v=TLSRPTv1; rua=mailto:a@example.org; 1ext=foo")).toBe(true);
  });

  it.each([
    "v=TLSRPTv1; rua=mailto:a@example.org; note=two words",
    "v=TLSRPTv1; rua=mailto:a@example.org; ext=a=b",
    "v=TLSRPTv1; rua=mailto:a@example.org; rua=mailto:b@example.org",
    "v=TLSRPTv1; RUA=mailto:a@example.org",
    "v=TLSRPTv1; rua =mailto:a@example.org",
  ])("rejects the TLS-RPT record %j", (record) => {
    expect(isValidTlsRptRecord(record)).toBe(false);
    expect(evaluateTlsRpt(gw.domain, gwMx, { ok: true, records: [record] }).map((f) => f.check_id)).toEqual([
      "email.tls_rpt.invalid",
    ]);
  });

  it("does not take other versions or a lower-case version for these records", () => {
    expect(evaluateMtaSts(gw.domain, gwMx, { ok: true, records: ["v=stsv1; id=1"] }).map((f) => f.check_id)).toEqual([
      "email.mta_sts.missing",
    ]);
    expect(evaluateTlsRpt(gw.domain, gwMx, { ok: true, records: ["v=TLSRPTv12; rua=mailto:a@b.example"] })).toEqual([
      expect.objectContaining({ check_id: "email.tls_rpt.missing" }),
    ]);
  });
});

describe("TLS-RPT", () => {
  it("accepts mailto: and https: destinations (RFC 8460 §3)", () => {
    expect(isValidTlsRptRecord("v=TLSRPTv1; rua=mailto:tlsrpt@brightside-clinic.example")).toBe(true);
    expect(isValidTlsRptRecord("v=TLSRPTv1;rua=mailto:a@example.org,https://reports.example.net/tlsrpt")).toBe(true);
    expect(isValidTlsRptRecord("v=TLSRPTv1; rua=tlsrpt@example.org")).toBe(false);
    expect(isValidTlsRptRecord("v=TLSRPTv1;")).toBe(false);
  });

  it("notes a missing record (info) and flags an invalid one (low)", () => {
    expect(evaluateTlsRpt(gw.domain, gwMx, fixtureTxt(gw, `_smtp._tls.${gw.domain}`))).toEqual([]);
    expect(
      evaluateTlsRpt(gw.domain, gwMx, { ok: false, code: "nxdomain" }).map((f) => [f.check_id, f.severity]),
    ).toEqual([["email.tls_rpt.missing", "info"]]);
    expect(
      evaluateTlsRpt(gw.domain, gwMx, { ok: true, records: ["v=TLSRPTv1; rua=nobody"] }).map((f) => f.check_id),
    ).toEqual(["email.tls_rpt.invalid"]);
  });
});

import { findingSubjectPart } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { externalFinding } from "./finding.js";
import { mergeAddressAnswers } from "./io/dns.js";

describe("externalFinding", () => {
  const spec = {
    check_id: "app.cookies.missing_secure",
    subject: "www.clinic.example",
    category: "application_security",
    severity: "medium",
    title: "Cookies without the Secure flag",
    detail: "PHPSESSID can be sent over plain HTTP.",
    remediation: "Set Secure.",
    controls: ["164.312(a)(1)"],
  } as const;

  it("builds a schema-valid external finding whose id is check plus subject", () => {
    const { subject: _subject, ...fields } = spec;
    expect(externalFinding(spec)).toEqual({
      ...fields,
      controls: ["164.312(a)(1)"],
      id: "app.cookies.missing_secure:www.clinic.example",
      source: "external",
      evidence: {},
    });
  });

  it("keeps ids within the allowed characters and length", () => {
    expect(findingSubjectPart("https://www.clinic.example/Patient Forms?x=1")).toBe(
      "www.clinic.example/patient_forms_x_1",
    );
    expect(externalFinding({ ...spec, subject: "x".repeat(400) }).id.length).toBeLessThanOrEqual(200);
  });

  it("refuses to build a finding the protocol would reject", () => {
    expect(() => externalFinding({ ...spec, check_id: "Not Valid" })).toThrow();
    expect(() => externalFinding({ ...spec, controls: [] })).toThrow();
  });

  it("clips long text to the protocol's limits", () => {
    const finding = externalFinding({ ...spec, title: "t".repeat(500) });
    expect(finding.title).toHaveLength(200);
    expect(finding.title.endsWith("…")).toBe(true);
  });
});

describe("mergeAddressAnswers", () => {
  it("keeps every address, IPv4 first", () => {
    expect(mergeAddressAnswers({ ok: true, records: ["203.0.113.1"] }, { ok: true, records: ["2001:db8::1"] })).toEqual(
      {
        ok: true,
        records: ["203.0.113.1", "2001:db8::1"],
      },
    );
    expect(mergeAddressAnswers({ ok: false, code: "nodata" }, { ok: true, records: ["2001:db8::1"] })).toEqual({
      ok: true,
      records: ["2001:db8::1"],
    });
  });

  it("prefers the failure that tells the most", () => {
    expect(mergeAddressAnswers({ ok: false, code: "nxdomain" }, { ok: false, code: "nxdomain" })).toEqual({
      ok: false,
      code: "nxdomain",
    });
    expect(mergeAddressAnswers({ ok: false, code: "nodata" }, { ok: false, code: "nodata" })).toEqual({
      ok: false,
      code: "nodata",
    });
    expect(mergeAddressAnswers({ ok: false, code: "timeout" }, { ok: false, code: "nodata" })).toEqual({
      ok: false,
      code: "timeout",
    });
  });
});

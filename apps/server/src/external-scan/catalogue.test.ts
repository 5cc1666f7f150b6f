import { readFileSync } from "node:fs";
import { FindingInputSchema, type FindingParsed, HIPAA_CONTROLS } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { CATALOGUE_TABLE_END, CATALOGUE_TABLE_START, renderCatalogueTable } from "./catalogue-markdown.js";
import type { ExternalCheck } from "./check.js";
import { EXTERNAL_CHECKS } from "./checks.js";
import type { ScanContext } from "./context.js";
import { evaluateDkim } from "./email/dkim-check.js";
import { evaluateDmarc } from "./email/dmarc-check.js";
import { evaluateSpf } from "./email/spf-check.js";
import { buildSpfTree } from "./email/spf-tree.js";
import { externalFinding } from "./finding.js";
import {
  CHECK_CATALOGUE,
  catalogueDisagreement,
  externallyVerifiedControls,
  findingKind,
} from "./finding-catalogue.js";
import { runCheck } from "./run-check.js";
import { evaluateCookies } from "./site/cookies-check.js";
import { evaluateSecurityHeaders } from "./site/security-headers-check.js";
import { fixtureTxt, loadDnsFixture } from "./test-support/dns-fixture.js";
import { loadResponseFixture } from "./test-support/fixtures.js";

const checksMd = readFileSync(new URL("./CHECKS.md", import.meta.url), "utf8");

describe("check catalogue", () => {
  it("has one entry per external check, in the same order, with the check's category", () => {
    expect(CHECK_CATALOGUE.map((e) => [e.check, e.category])).toEqual(EXTERNAL_CHECKS.map((c) => [c.id, c.category]));
  });

  it("names every finding <check id>.<problem> and cites controls of the protocol's catalogue", () => {
    const known = new Set(HIPAA_CONTROLS.map((c) => c.id));
    for (const entry of CHECK_CATALOGUE) {
      for (const kind of entry.findings) {
        expect(kind.check_id.startsWith(`${entry.check}.`)).toBe(true);
        expect(kind.controls.length).toBeGreaterThan(0);
        for (const control of kind.controls) expect([kind.check_id, known.has(control)]).toEqual([kind.check_id, true]);
      }
    }
    expect(findingKind("email.spf.timeout")).toMatchObject({ severity: "info", controls: ["164.308(a)(8)"] });
    expect(externallyVerifiedControls().get("164.312(d)")).toContain("email.spf.pass_all");
  });

  it("is the table CHECKS.md shows (regenerate it with renderCatalogueTable())", () => {
    const start = checksMd.indexOf(CATALOGUE_TABLE_START);
    const end = checksMd.indexOf(CATALOGUE_TABLE_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(checksMd.slice(start, end + CATALOGUE_TABLE_END.length)).toBe(renderCatalogueTable());
  });

  it("agrees with the findings the evaluators build from the fixtures", () => {
    const findings: FindingParsed[] = [];
    for (const file of ["google-workspace.json", "microsoft-365.json", "too-many-lookups.json", "neglected.json"]) {
      const f = loadDnsFixture(file);
      findings.push(
        ...evaluateSpf(
          f.domain,
          buildSpfTree(f.domain, (n) => fixtureTxt(f, n)),
        ),
      );
      findings.push(...evaluateDmarc(f.domain, fixtureTxt(f, `_dmarc.${f.domain}`)));
      findings.push(
        ...evaluateDkim(f.domain, {
          domainkey: fixtureTxt(f, `_domainkey.${f.domain}`),
          selectors: { google: fixtureTxt(f, `google._domainkey.${f.domain}`), k1: { ok: true, records: ["p=x"] } },
        }),
      );
    }
    for (const file of ["nginx-wordpress.json", "iis-aspnet.json", "apache-legacy.json"]) {
      const r = loadResponseFixture(file);
      const host = new URL(r.url).hostname;
      findings.push(...evaluateSecurityHeaders(host, r.url, r.headers, '<meta name="referrer" content="unsafe-url">'));
      findings.push(...evaluateCookies(host, [r]));
    }
    expect(findings.length).toBeGreaterThan(20);
    expect(findings.map(catalogueDisagreement).filter((p) => p !== null)).toEqual([]);
  });

  it("makes the runner report a check whose finding disagrees with the catalogue as an error", async () => {
    const finding = (severity: "low" | "high") =>
      externalFinding({
        check_id: "email.spf.softfail_all",
        subject: "clinic.example",
        category: "email_security",
        severity,
        title: "t",
        detail: "d",
        remediation: "r",
        controls: ["164.312(d)", "164.308(a)(5)(ii)(B)", "164.312(c)(1)"],
      });
    const check = (severity: "low" | "high"): ExternalCheck => ({
      ...EXTERNAL_CHECKS.find((c) => c.id === "email.spf")!,
      run: async () => ({ status: "ok", findings: [finding(severity)] }),
    });
    const ctx = {
      target: { domain: "clinic.example", siteHost: "clinic.example" },
      signal: new AbortController().signal,
    };
    const agreeing = await runCheck(check("low"), ctx as unknown as ScanContext);
    expect(agreeing.record.status).toBe("ok");
    const wrong = await runCheck(check("high"), ctx as unknown as ScanContext);
    expect(wrong.record).toMatchObject({ status: "error", detail: expect.stringMatching(/severity high/) });
    expect(() => FindingInputSchema.parse(wrong.findings[0])).not.toThrow();
  });
});

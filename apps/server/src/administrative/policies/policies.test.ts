import { hipaaControl } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import type { PracticeFacts } from "../practice-facts.js";
import { POLICIES } from "./catalogue.js";
import { citationsIn, policyHtml, renderPolicyMarkdown } from "./render.js";

const facts: PracticeFacts = {
  npi: "1234567893",
  name: "Cedar Family Medicine",
  domain: "cedar.example",
  profile: {
    security_officer: { name: "Dana Ortiz", title: "Practice Administrator", email: "dana@cedar.example" },
    workforce_size: 14,
    ehr_system: "OpenEMR",
    locations: 2,
  },
  systems: [{ host: "frontdesk-01", os: "Windows 11", ephi_roles: ["ehr_client"] }],
  vendors: [{ name: "Acme Billing", services: ["claims"], phi_access: true }],
};
const bare: PracticeFacts = {
  npi: "1234567893",
  name: "Bare Clinic",
  domain: "bare.example",
  profile: {},
  systems: [],
  vendors: [],
};

describe("the 24 policies", () => {
  it("are numbered 1–24 as docs/administrative.md lists them, each citing controls of the catalogue", () => {
    expect(POLICIES.map((p) => p.number)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(new Set(POLICIES.map((p) => p.slug)).size).toBe(24);
    for (const p of POLICIES) {
      expect(p.citations.length, p.title).toBeGreaterThan(0);
      for (const c of p.citations) expect(hipaaControl(c), `${p.number}: ${c}`).toBeDefined();
    }
  });

  it("every CFR citation in every rendered policy exists in the control catalogue", () => {
    for (const f of [facts, bare]) {
      for (const p of POLICIES) {
        const md = renderPolicyMarkdown(p, f, { version: 1, generated_on: "2024-02-29" });
        const cited = citationsIn(md);
        expect(cited.length, p.title).toBeGreaterThan(0);
        for (const c of cited) expect(hipaaControl(c), `policy ${p.number} cites ${c}`).toBeDefined();
        for (const c of p.citations) expect(md, `policy ${p.number} references ${c}`).toContain(`45 CFR ${c}`);
      }
    }
  });

  it("are written from the practice's facts, and say what is missing before adoption", () => {
    const p4 = renderPolicyMarkdown(POLICIES[3]!, facts, { version: 2, generated_on: "2024-02-29" });
    expect(p4).toContain("Dana Ortiz (Practice Administrator), Security Official");
    expect(p4).toContain("version 2 · effective 2024-02-29 · review by 2025-02-28");
    const p11 = renderPolicyMarkdown(POLICIES[10]!, facts, { version: 1, generated_on: "2024-01-01" });
    expect(p11).toContain("Acme Billing (claims)");
    const p16 = renderPolicyMarkdown(POLICIES[15]!, facts, { version: 1, generated_on: "2024-01-01" });
    expect(p16).toContain("OpenEMR");
    expect(p16).toContain("frontdesk-01");
    const bareP4 = renderPolicyMarkdown(POLICIES[3]!, bare, { version: 1, generated_on: "2024-01-01" });
    expect(bareP4).toContain("## Before adoption");
    expect(bareP4).toContain("not yet named");
  });

  it("renders HTML with every text escaped", () => {
    const hostile = { ...facts, name: "<script>alert(1)</script> & Co" };
    const html = policyHtml(
      renderPolicyMarkdown(POLICIES[0]!, hostile, { version: 1, generated_on: "2024-01-01" }),
      "x",
    );
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("<h1>Policy 1: Security Management Process and Risk Analysis</h1>");
    expect(html).toMatch(/<ul>\n<li>/);
  });
});

import { describe, expect, it } from "vitest";
import { CATEGORY_NAMES } from "./categories.js";
import { HIPAA_CONTROLS, hipaaControl } from "./hipaa/controls.js";
import { COMPLIANCE_REQUIREMENTS } from "./hipaa/requirements.js";
import { PHASE_IDS, PHASES } from "./phases.js";

describe("HIPAA control catalogue", () => {
  const securityRule = HIPAA_CONTROLS.filter((c) => ["164.308", "164.310", "164.312"].includes(c.section));

  it("has the 18 standards and 36 implementation specifications of 164.308, 164.310 and 164.312", () => {
    expect(securityRule.filter((c) => c.kind === "standard")).toHaveLength(18);
    expect(securityRule.filter((c) => c.kind === "implementation_specification")).toHaveLength(36);
    const per = (s: string, k: string) => securityRule.filter((c) => c.section === s && c.kind === k).length;
    expect([per("164.308", "standard"), per("164.310", "standard"), per("164.312", "standard")]).toEqual([9, 4, 5]);
    expect([
      per("164.308", "implementation_specification"),
      per("164.310", "implementation_specification"),
      per("164.312", "implementation_specification"),
    ]).toEqual([21, 8, 7]);
  });

  it("marks required and addressable as Appendix A does", () => {
    const specs = securityRule.filter((c) => c.kind === "implementation_specification");
    expect(specs.filter((c) => c.requirement === "required")).toHaveLength(14);
    expect(specs.filter((c) => c.requirement === "addressable")).toHaveLength(22);
    expect(hipaaControl("164.308(a)(1)(ii)(A)")?.requirement).toBe("required"); // risk analysis
    expect(hipaaControl("164.308(a)(7)(ii)(A)")?.requirement).toBe("required"); // data backup plan
    expect(hipaaControl("164.312(a)(2)(iv)")?.requirement).toBe("addressable"); // encryption and decryption
    expect(hipaaControl("164.312(e)(2)(ii)")?.requirement).toBe("addressable"); // transmission encryption
    expect(hipaaControl("164.312(a)(2)(i)")?.requirement).toBe("required"); // unique user identification
    expect(hipaaControl("164.310(d)(2)(i)")?.requirement).toBe("required"); // disposal
    expect(hipaaControl("164.308(a)(5)(ii)(D)")?.requirement).toBe("addressable"); // password management
    expect(hipaaControl("164.312(b)")).toMatchObject({
      kind: "standard",
      requirement: "required",
      title: "Audit controls",
    });
  });

  it("carries the Breach Notification Rule's sections 164.402–164.414 and the Privacy Rule provisions policies cite", () => {
    for (const id of ["164.402", "164.404(b)", "164.406", "164.408(b)", "164.408(c)", "164.410", "164.414"]) {
      expect(hipaaControl(id)?.kind, id).toBe("standard");
    }
    expect(hipaaControl("164.530(j)")?.title).toMatch(/six-year/);
    expect(hipaaControl("164.404(b)")?.title).toMatch(/60 calendar days/);
  });

  it("ids are unique and every specification points to a standard of its section", () => {
    expect(new Set(HIPAA_CONTROLS.map((c) => c.id)).size).toBe(HIPAA_CONTROLS.length);
    for (const c of HIPAA_CONTROLS) {
      expect(c.id.startsWith(c.section), c.id).toBe(true);
      if (c.kind === "implementation_specification") {
        const std = hipaaControl(c.standard!);
        expect(std?.kind, c.id).toBe("standard");
        expect(std?.section).toBe(c.section);
      }
    }
  });
});

describe("scanner phases", () => {
  it("are the 12 of docs/scanner.md, in order", () => {
    expect(PHASE_IDS).toEqual([
      "discovery",
      "ports",
      "tls",
      "disk_encryption",
      "mfa",
      "access_control",
      "segmentation",
      "asset_inventory",
      "patches",
      "eol",
      "backups",
      "ephi_flow",
    ]);
    expect(PHASES.map((p) => p.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it("cite catalogued controls and real categories", () => {
    for (const p of PHASES) {
      expect(p.controls.length).toBeGreaterThan(0);
      for (const c of p.controls) expect(hipaaControl(c), `${p.id} ${c}`).toBeDefined();
      for (const c of p.categories) expect(CATEGORY_NAMES).toContain(c);
    }
  });

  it("every internal category gets data from at least one phase", () => {
    const covered = new Set(PHASES.flatMap((p) => p.categories));
    for (const c of ["encryption", "access_control", "network_security", "asset_management", "contingency"]) {
      expect(covered.has(c as never), c).toBe(true);
    }
  });
});

describe("the 13 requirements", () => {
  it("are 13, each with catalogued controls and evidence", () => {
    expect(COMPLIANCE_REQUIREMENTS).toHaveLength(13);
    expect(new Set(COMPLIANCE_REQUIREMENTS.map((r) => r.id)).size).toBe(13);
    for (const r of COMPLIANCE_REQUIREMENTS) {
      expect(r.controls.length).toBeGreaterThan(0);
      for (const c of r.controls) expect(hipaaControl(c), `${r.id} ${c}`).toBeDefined();
      expect(r.evidence.length).toBeGreaterThan(0);
      for (const e of r.evidence) {
        if (e.kind === "phase") expect(PHASE_IDS).toContain(e.phase);
        if (e.kind === "external_check")
          expect(["email_security", "application_security", "privacy_compliance"]).toContain(e.category);
      }
    }
  });

  it("every scanner phase evidences at least one requirement", () => {
    const evidenced = new Set(
      COMPLIANCE_REQUIREMENTS.flatMap((r) => r.evidence.flatMap((e) => (e.kind === "phase" ? [e.phase] : []))),
    );
    for (const id of PHASE_IDS) expect(evidenced.has(id), id).toBe(true);
  });
});

import { hipaaControl } from "@hcs/protocol";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKFLOW_RULES } from "../../administrative/workflow-rules.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
const NPI = "1234567893";
beforeAll(async () => {
  t = await startTestServer({ now: () => new Date("2024-06-01T09:00:00Z") });
  owner = await accountWithKey(t.server.deps, { plan: "professional" });
  await gradedPractice(t.server.deps, owner.accountId, NPI);
});
afterAll(async () => {
  await t.close();
});
const key = () => ({ "X-API-Key": owner.apiKey });

describe("hipaa.baa", () => {
  it("records vendors, tracks BAA coverage, removes, and counts uncovered PHI vendors against the grade", async () => {
    const up = (vendor: object) =>
      t.request(`/v1/a2a/baa/${NPI}`, { method: "POST", headers: key(), body: { action: "upsert", vendor } });
    expect(
      (
        await up({
          name: "Acme Billing",
          domain: "acme-billing.example",
          services: ["claims"],
          phi_access: true,
          baa_status: "signed",
          signed_on: "2023-01-10",
          expires_on: "2024-06-20",
        })
      ).status,
    ).toBe(200);
    await up({ name: "CloudFax", phi_access: true, baa_status: "none" });
    const list = await up({ vendor_id: "coffee", name: "Coffee Service", phi_access: false, baa_status: "none" });
    expect(
      list.json.business_associates.map((v: { vendor_id: string; coverage: string }) => [v.vendor_id, v.coverage]),
    ).toEqual([
      ["acme-billing", "expiring"],
      ["cloudfax", "missing"],
      ["coffee", "missing"],
    ]);
    expect(list.json.summary).toEqual({ with_phi_access: 2, covered: 1, missing: 1, expired: 0, expiring: 1 });
    const findings = await t.server.deps.store.db
      .selectFrom("findings")
      .select(["finding_id", "severity"])
      .where("npi", "=", NPI)
      .where("check_id", "like", "administrative.baa%")
      .where("resolved_at", "is", null)
      .execute();
    expect(findings.map((f) => [f.finding_id, f.severity]).sort()).toEqual([
      ["administrative.baa_expiring:acme-billing", "low"],
      ["administrative.baa_missing:cloudfax", "high"],
    ]);
    const removed = await t.request(`/v1/a2a/baa/${NPI}`, {
      method: "POST",
      headers: key(),
      body: { action: "remove", vendor_id: "cloudfax" },
    });
    expect(removed.json.business_associates).toHaveLength(2);
    const again = await t.request(`/v1/a2a/baa/${NPI}`, {
      method: "POST",
      headers: key(),
      body: { action: "remove", vendor_id: "cloudfax" },
    });
    expect(again.status).toBe(404);
    const rpc = await t.request("/api/a2a", {
      method: "POST",
      headers: key(),
      body: { jsonrpc: "2.0", id: 1, method: "hipaa.baa", params: { npi: NPI } },
    });
    expect(rpc.json.result.business_associates).toHaveLength(2);
  });

  it("refuses other accounts and bad vendors", async () => {
    const other = await accountWithKey(t.server.deps, { plan: "free" });
    const res = await t.request(`/v1/a2a/baa/${NPI}`, {
      method: "POST",
      headers: { "X-API-Key": other.apiKey },
      body: {},
    });
    expect(res.json.error.code).toBe("forbidden");
    const noVendor = await t.request(`/v1/a2a/baa/${NPI}`, {
      method: "POST",
      headers: key(),
      body: { action: "upsert" },
    });
    expect(noVendor.json.error.code).toBe("invalid_body");
    const unsigned = await t.request(`/v1/a2a/baa/${NPI}`, {
      method: "POST",
      headers: key(),
      body: { action: "upsert", vendor: { name: "X", phi_access: true, baa_status: "signed" } },
    });
    expect(unsigned.json.error.code).toBe("invalid_body");
  });
});

describe("hipaa.validate_workflow", () => {
  const step = {
    from: "front desk",
    to: "billing company",
    system: "clearinghouse portal",
    data_types: ["demographic", "insurance"],
    purpose: "payment",
    transport: "https",
    encrypted_at_rest: true,
    access_control: "role_based",
  };

  it("accepts a clean workflow and flags each rule with its control and a fix", async () => {
    const clean = await t.request("/v1/a2a/workflows/validate", {
      method: "POST",
      headers: key(),
      body: { workflow: { steps: [step] } },
    });
    expect(clean.json).toEqual({ valid: true, steps: 1, issues: [] });
    const bad = await t.request("/v1/a2a/workflows/validate", {
      method: "POST",
      headers: key(),
      body: {
        npi: NPI,
        workflow: {
          steps: [
            { ...step, id: "upload", transport: "ftp", vendor: "Coffee Service", data_types: ["demographic", "ssn"] },
            {
              ...step,
              id: "store",
              encrypted_at_rest: false,
              access_control: "shared_account",
              vendor: "Acme Billing",
            },
            {
              ...step,
              id: "remote",
              transport: "rdp",
              mfa: false,
              access_control: "none",
              purpose: "treatment",
              data_types: ["clinical"],
            },
          ],
        },
      },
    });
    expect(bad.status).toBe(200);
    expect(bad.json.valid).toBe(false);
    const rules = bad.json.issues.map((i: { step_id: string; rule: string }) => `${i.step_id}:${i.rule}`);
    expect(rules).toEqual([
      "upload:cleartext_transport",
      "upload:vendor_without_baa", // the records say Coffee Service has no BAA
      "upload:beyond_minimum_necessary",
      "store:storage_unencrypted",
      "store:shared_account",
      "remote:no_access_control",
      "remote:remote_access_without_mfa",
    ]);
    for (const issue of bad.json.issues) {
      expect(hipaaControl(issue.control), issue.rule).toBeDefined();
      expect(issue.fix.length).toBeGreaterThan(10);
    }
    expect(WORKFLOW_RULES).toHaveLength(7);
  });

  it("answers hostile workflows with a 4xx, never a 500", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.record({
            workflow: fc.record({
              steps: fc.array(fc.dictionary(fc.constantFrom(...Object.keys(step), "vendor", "baa"), fc.anything())),
            }),
          }),
        ),
        async (body) => {
          const res = await t.request("/v1/a2a/workflows/validate", {
            method: "POST",
            headers: { ...key(), "Content-Type": "application/json" },
            body: JSON.stringify(body) ?? "null",
          });
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 50 },
    );
  });
});

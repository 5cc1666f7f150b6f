import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";
import { PracticeStatusSchema } from "../practices/practice.declaration.js";

let clock: Date;
let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
const NPI = "1234567893";
const runPg = await shouldRunPostgres();
const bearer = () => ({ Authorization: `Bearer ${owner.apiKey}` });
const practice = async () => PracticeStatusSchema.parse((await t.request("/v1/practice", { headers: bearer() })).json);
const admin = async () => (await practice()).compliance.grade!.categories.administrative_safeguards?.score;
const requirementStates = async () => {
  const res = await t.request(`/v1/a2a/compliance/${NPI}`, { headers: { "X-API-Key": owner.apiKey } });
  return Object.fromEntries(
    res.json.requirements
      .filter((r: { number: number }) => r.number >= 9 && r.number <= 12)
      .map((r: { id: string; state: string }) => [r.id, r.state]),
  );
};

// The whole walk runs on both engines: the administrative records are the migration 016 tables.
describe.each(runPg ? (["sqlite", "postgres"] as const) : (["sqlite"] as const))(
  "the administrative category and requirements 9–12 (%s)",
  (engine) => {
    beforeAll(async () => {
      clock = new Date("2024-03-01T12:00:00Z");
      t = await startTestServer({ engine, now: () => clock });
      owner = await accountWithKey(t.server.deps, { plan: "professional", credits: 1000 });
      await gradedPractice(t.server.deps, owner.accountId, NPI);
    });
    afterAll(async () => {
      await t.close();
    });

    it("move as a practice manager keeps the records, and an SRA turning 12 months old counts as missing", async () => {
      const before = await practice();
      expect(before.compliance.grade?.coverage.administrative.status).toBe("none");
      expect(before.administrative.records.risk_assessment?.state).toBe("unknown");
      expect(await requirementStates()).toEqual({
        security_risk_assessment: "unknown",
        policy_documentation: "unknown",
        staff_training: "unknown",
        baa_management: "unknown",
      });

      // The first record brings the category in: no SRA (critical 40), no policies (high 20), no training (high 20).
      await t.request("/v1/incidents", {
        method: "POST",
        headers: bearer(),
        body: {
          title: "Phishing email reported",
          category: "phishing",
          discovered_on: "2024-02-20",
          phi_involved: false,
        },
      });
      expect(await admin()).toBe(20);
      expect((await practice()).compliance.grade?.scoring_version).toBe("hcs-score-2026.3");

      await t.request("/v1/risk-assessment", {
        method: "POST",
        headers: bearer(),
        body: { responses: { "basics.security_official": { answer: "yes" } } },
      });
      expect(await admin()).toBe(60);
      await t.request("/v1/policies/generate", { method: "POST", headers: bearer(), body: {} });
      expect(await admin()).toBe(80);
      await t.request("/v1/training/records", {
        method: "POST",
        headers: bearer(),
        body: {
          members: [{ member_id: "e1", name: "Dana Ortiz", role: "office manager", hired_on: "2020-01-06" }],
          completions: [{ member_id: "e1", completed_on: "2024-02-01" }],
        },
      });
      expect(await admin()).toBe(100);
      await t.request(`/v1/a2a/baa/${NPI}`, {
        method: "POST",
        headers: { "X-API-Key": owner.apiKey },
        body: { action: "upsert", vendor: { name: "CloudFax", phi_access: true, baa_status: "none" } },
      });
      expect(await admin()).toBe(80);
      expect(await requirementStates()).toEqual({
        security_risk_assessment: "met",
        policy_documentation: "met",
        staff_training: "met",
        baa_management: "not_met",
      });
      const view = await practice();
      expect(view.requirements.items.find((r) => r.number === 12)?.state).toBe("not_met");
      expect(view.administrative.records.policies?.detail).toBe(
        "24 of 24 policies generated or reviewed within 12 months",
      );

      // A year and a day later: the SRA, the policies and the training are all out of date.
      clock = new Date("2025-03-02T12:00:00Z");
      const later = await practice();
      expect(later.administrative.records.risk_assessment?.state).toBe("not_met");
      expect(later.compliance.grade?.categories.administrative_safeguards?.score).toBe(0);
      expect(await requirementStates()).toMatchObject({
        security_risk_assessment: "not_met",
        policy_documentation: "not_met",
      });
    });
  },
);

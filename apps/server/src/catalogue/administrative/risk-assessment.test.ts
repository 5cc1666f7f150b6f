import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUESTION_IDS } from "../../administrative/risk/questionnaire.js";
import { RiskAssessmentViewSchema } from "../../administrative/risk/risk-assessment-view.js";
import { SraReportSchema } from "../../administrative/risk/sra-report.js";
import { scanDocument } from "../../test-support/agent-client.js";
import { type EnrolledPractice, enrolledPractice } from "../../test-support/enrolled-practice.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

let t: TestServer;
let practice: EnrolledPractice;
const NPI = "1234567893";
beforeAll(async () => {
  t = await startTestServer();
  practice = await enrolledPractice(t, NPI, 1);
  const agent = await practice.enrol("frontdesk-01");
  // The scanner finds an unencrypted volume holding ePHI, and backups in order.
  const up = await practice.upload(agent, scanDocument(agent.agentId, { unencrypted: true }));
  expect(up.status).toBe(201);
});
afterAll(async () => {
  await t.close();
});
const bearer = () => ({ Authorization: `Bearer ${practice.ownerKey}` });
type View = ReturnType<typeof RiskAssessmentViewSchema.parse>;
const question = (v: View, id: string) =>
  v.questionnaire.sections.flatMap((s) => s.questions).find((q) => q.id === id)!;

describe("risk assessment (GET/POST /v1/risk-assessment, hipaa.sra)", () => {
  it("serves the questionnaire in the SRA Tool's sections, pre-filled from scan evidence", async () => {
    const res = await t.request("/v1/risk-assessment", { headers: bearer() });
    expect(res.status).toBe(200);
    const view = RiskAssessmentViewSchema.parse(res.json);
    expect(view.questionnaire.sections.map((s) => s.id)).toEqual([
      "sra_basics",
      "security_policies",
      "workforce",
      "data_security",
      "physical_security",
      "business_associates",
      "contingency",
    ]);
    expect(question(view, "data.encryption_at_rest").prefill).toMatchObject({
      answer: "no",
      source: expect.stringContaining("disk_encryption"),
    });
    expect(question(view, "contingency.backups").prefill?.answer).toBe("yes");
    expect(question(view, "workforce.mfa").prefill).toBeNull(); // the MFA phase did not run
    expect(view.assessment.status).toBe("missing");
  });

  it("flags responses that contradict the evidence and runs the SRA over the evidence's answer", async () => {
    const res = await t.request("/v1/risk-assessment", {
      method: "POST",
      headers: bearer(),
      body: {
        responses: {
          "data.encryption_at_rest": { answer: "yes" },
          "contingency.backups": { answer: "no", note: "we think the NAS job is broken" },
          "workforce.mfa": { answer: "partial" },
          "basics.security_official": { answer: "yes" },
        },
      },
    });
    expect(res.status).toBe(201);
    const view = RiskAssessmentViewSchema.parse(res.json);
    expect(view.responses_version).toBe(1);
    expect(question(view, "data.encryption_at_rest").flag).toBe("overstates");
    expect(question(view, "contingency.backups").flag).toBe("understates");
    const report = view.assessment.report!;
    expect(view.assessment.status).toBe("current");
    expect(report.contradictions.map((c) => [c.question, c.kind])).toEqual([
      ["data.encryption_at_rest", "overstates"],
      ["contingency.backups", "understates"],
    ]);
    const theft = report.register.find((r) => r.id === "device_theft")!;
    // Encryption is taken as "no" from the evidence: the theft risk keeps a high likelihood and misses 164.312(a)(2)(iv).
    expect(theft.controls_missing).toContain("164.312(a)(2)(iv)");
    expect(theft.evidence.find((e) => e.question === "data.encryption_at_rest")).toMatchObject({ answer: "no" });
    expect(theft.evidence.find((e) => e.question === "data.encryption_at_rest")!.findings.length).toBe(1);
    expect(["high", "very_high"]).toContain(theft.level);
    expect(report.remediation_plan[0]).toMatchObject({ priority: 1 });
    expect(report.valid_until.slice(0, 4)).toBe(String(Number(report.assessed_at.slice(0, 4)) + 1));
    expect(report.register.map((r) => r.score)).toEqual([...report.register.map((r) => r.score)].sort((a, b) => b - a));
  });

  it("hipaa.sra costs 500 credits and stores a new version", async () => {
    const res = await t.request(`/v1/a2a/sra/${NPI}`, {
      method: "POST",
      headers: { "X-API-Key": practice.ownerKey },
      body: { responses: { "vendors.baa": { answer: "yes" } } },
    });
    expect(res.status).toBe(200);
    expect(res.headers["x-credits-charged"]).toBe("500");
    const report = SraReportSchema.parse(res.json);
    expect(report.version).toBe(2);
    const view = RiskAssessmentViewSchema.parse((await t.request("/v1/risk-assessment", { headers: bearer() })).json);
    expect(view.responses_version).toBe(2);
    expect(view.assessment.report?.version).toBe(2);
    expect(question(view, "vendors.baa").response).toEqual({ answer: "yes" });
    expect(question(view, "basics.security_official").response).toEqual({ answer: "yes" }); // kept from version 1
  });

  it("refuses free plans, unknown questions and hostile bodies without a 500", async () => {
    const free = await accountWithKey(t.server.deps, { plan: "free" });
    const refused = await t.request("/v1/risk-assessment", { headers: { Authorization: `Bearer ${free.apiKey}` } });
    expect(refused.json.error.code).toBe("plan_required");
    const foreign = await t.request(`/v1/a2a/sra/${NPI}`, { method: "POST", headers: { "X-API-Key": free.apiKey } });
    expect(foreign.json.error.code).toBe("forbidden");
    const unknown = await t.request("/v1/risk-assessment", {
      method: "POST",
      headers: bearer(),
      body: { responses: { "no.such": { answer: "yes" } } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe("invalid_body");
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.record({
            responses: fc.dictionary(fc.oneof(fc.constantFrom(...QUESTION_IDS), fc.string()), fc.anything()),
          }),
          fc.record({ responses: fc.dictionary(fc.constantFrom(...QUESTION_IDS), fc.record({ answer: fc.string() })) }),
        ),
        async (body) => {
          const res = await t.request("/v1/risk-assessment", {
            method: "POST",
            headers: { ...bearer(), "Content-Type": "application/json" },
            body: JSON.stringify(body) ?? "null",
          });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(res.json.error.code).toMatch(/^invalid_/);
        },
      ),
      { numRuns: 40 },
    );
  });
});

import { CREDIT_PRICES } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RiskAssessmentViewSchema } from "../../administrative/risk/risk-assessment-view.js";
import { type SraReport, SraReportSchema } from "../../administrative/risk/sra-report.js";
import { scanDocument } from "../../test-support/agent-client.js";
import { enrolledPracticeFor } from "../../test-support/enrolled-practice.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import type { PortalClient } from "../../test-support/portal-client.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * The risk-assessment questionnaire as a guided form (docs/portal.md), over real HTTPS and a real store: answers the
 * scans give are pre-filled and marked; an invalid submission keeps the answers and shows the problem next to its
 * question, charging nothing; a valid one runs hipaa.sra by the portal bridge at the API's price and shows the
 * result — the same report the API returns for the same answers.
 */

const NPI = "1234567893";
const SRA = CREDIT_PRICES.sra;

/** The fields a browser submits for the page's form as loaded: every checked answer and every note. */
function formOf(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of page.matchAll(/<input type="radio" name="(answer:[^"]+)" value="([^"]+)" checked/g))
    fields[m[1]!] = m[2]!;
  for (const m of page.matchAll(/<textarea[^>]* name="(note:[^"]+)"[^>]*>([^<]*)<\/textarea>/g)) fields[m[1]!] = m[2]!;
  return fields;
}

/** The fieldset of one question in a page. */
function questionHtml(page: string, questionId: string): string {
  const start = page.indexOf(`id="q-${questionId.replace(/\./g, "-")}"`);
  expect(start).toBeGreaterThan(0);
  return page.slice(start, page.indexOf("</fieldset>", start));
}

/** A report without what differs between two runs of the same answers (its id, version and time). */
const comparable = ({ id: _i, version: _v, assessed_at: _a, valid_until: _u, ...rest }: SraReport) => rest;

function sraSuite(engine: "sqlite" | "postgres") {
  describe(`risk assessment form (${engine})`, () => {
    let t: TestServer;
    let owner: Awaited<ReturnType<typeof accountWithKey>>;
    let manager: PortalClient;

    beforeAll(async () => {
      t = await startTestServer({ engine });
      owner = await accountWithKey(t.server.deps, { plan: "professional", credits: 2000, name: "Hillside Dental" });
      await gradedPractice(t.server.deps, owner.accountId, NPI);
      const practice = await enrolledPracticeFor(t, owner.apiKey, NPI, 1);
      const agent = await practice.enrol("frontdesk-01");
      // The scanner finds an unencrypted volume holding ePHI, and backups in order: two pre-filled answers.
      expect((await practice.upload(agent, scanDocument(agent.agentId, { unencrypted: true }))).status).toBe(201);
      ({ browser: manager } = await invitedAndSignedIn(t, owner.accountId, "manager@hillside.example", "manager"));
    });
    afterAll(async () => {
      await t?.close();
    });

    const db = () => t.server.deps.store.db;
    const balance = async () =>
      Number(
        (
          await db()
            .selectFrom("accounts")
            .select("credits")
            .where("id", "=", owner.accountId)
            .executeTakeFirstOrThrow()
        ).credits,
      );
    const sraEvents = () =>
      db()
        .selectFrom("audit_events")
        .selectAll()
        .where("actor_account_id", "=", owner.accountId)
        .where("action", "=", "hipaa.sra")
        .orderBy("id")
        .execute();

    it("shows the seven sections with the scans' answers pre-filled, marked with their source, and editable", async () => {
      const page = await manager.get(`/portal/practices/${NPI}/risk-assessment`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`href="/portal/practices/${NPI}/risk-assessment"`); // in the navigation
      expect(page.text).toContain("No risk assessment has been run for this practice yet.");
      expect(page.text).toContain(`Run the risk assessment (${SRA} credits)`);
      const encryption = questionHtml(page.text, "data.encryption_at_rest");
      expect(encryption).toMatch(/<strong>Pre-filled from scanner phase disk_encryption[^<]*<\/strong>/);
      expect(encryption).toContain('value="no" checked');
      expect(encryption).not.toContain("disabled");
      expect(questionHtml(page.text, "contingency.backups")).toContain('value="yes" checked');
      const mfa = questionHtml(page.text, "workforce.mfa"); // the MFA phase did not run: nothing pre-filled
      expect(mfa).not.toContain("Pre-filled");
      expect(mfa).not.toContain("checked");
    });

    it("keeps the answers and shows the problem next to its question when a submission is invalid, charging nothing", async () => {
      const page = await manager.get(`/portal/practices/${NPI}/risk-assessment`);
      const before = await balance();
      const refused = await manager.post(`/portal/practices/${NPI}/risk-assessment`, {
        ...formOf(page.text),
        "answer:basics.security_official": "yes",
        "note:basics.security_official": "x".repeat(2001),
        "answer:data.encryption_at_rest": "yes",
        "answer:workforce.mfa": "sometimes",
      });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("2 answers need attention");
      const official = questionHtml(refused.text, "basics.security_official");
      expect(official).toContain("A note can be at most 2000 characters.");
      expect(official).toContain('value="yes" checked');
      expect(official).toContain("x".repeat(2001));
      expect(questionHtml(refused.text, "workforce.mfa")).toContain("Choose one of the answers.");
      // The person's answer is kept, not the pre-filled one.
      const encryption = questionHtml(refused.text, "data.encryption_at_rest");
      expect(encryption).toContain('value="yes" checked');
      expect(encryption).not.toContain('value="no" checked');
      expect(await balance()).toBe(before);
      expect(await sraEvents()).toEqual([]);
    });

    it("runs the assessment at the API's price and shows its result, the same the API returns for the same answers", async () => {
      const { browser: viewer } = await invitedAndSignedIn(t, owner.accountId, "viewer@hillside.example", "viewer");
      const readOnly = await viewer.get(`/portal/practices/${NPI}/risk-assessment`);
      expect(readOnly.text).not.toContain("Run the risk assessment");
      expect(questionHtml(readOnly.text, "data.encryption_at_rest")).toContain("disabled");
      const forbidden = await viewer.post(`/portal/practices/${NPI}/risk-assessment`, formOf(readOnly.text));
      expect(forbidden.status).toBe(403);

      const page = await manager.get(`/portal/practices/${NPI}/risk-assessment`);
      const before = await balance();
      const ran = await manager.post(`/portal/practices/${NPI}/risk-assessment`, {
        ...formOf(page.text),
        "answer:basics.security_official": "yes",
        "note:basics.security_official": "Dr. Lee since 2024",
        "answer:data.encryption_at_rest": "yes", // claims more than the scan shows
      });
      expect(ran.status).toBe(303);
      expect(ran.headers.location).toBe(`/portal/practices/${NPI}/risk-assessment/result?ran=1`);
      const requestId = ran.headers["x-request-id"] as string;
      expect(await balance()).toBe(before - SRA);
      const charges = await db()
        .selectFrom("credit_ledger")
        .selectAll()
        .where("account_id", "=", owner.accountId)
        .where("delta", "<", 0)
        .execute();
      expect(charges).toEqual([expect.objectContaining({ delta: -SRA, operation: "sra", reference: requestId })]);
      const events = await sraEvents();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ request_id: requestId, transport: "portal", actor_key_id: null, status: 200 });
      expect(events[0]!.actor_operator).toMatch(/^user:/);

      // What was stored: the person's two answers only (the pre-filled ones stay the scans').
      const api = await t.request("/v1/risk-assessment", { headers: { Authorization: `Bearer ${owner.apiKey}` } });
      const view = RiskAssessmentViewSchema.parse(api.json);
      const answered = view.questionnaire.sections.flatMap((s) => s.questions).filter((q) => q.response !== null);
      expect(answered.map((q) => [q.id, q.response])).toEqual([
        ["basics.security_official", { answer: "yes", note: "Dr. Lee since 2024" }],
        ["data.encryption_at_rest", { answer: "yes" }],
      ]);
      const stored = view.assessment.report!;
      expect(stored.contradictions.map((c) => [c.question, c.kind])).toEqual([
        ["data.encryption_at_rest", "overstates"],
      ]);

      const result = await manager.get(`/portal/practices/${NPI}/risk-assessment/result?ran=1`);
      expect(result.status).toBe(200);
      expect(result.text).toContain(`The risk assessment was run and stored (${SRA} credits).`);
      const levels: Record<string, string> = { low: "Low", moderate: "Moderate", high: "High", very_high: "Very high" };
      expect(result.text).toMatch(
        new RegExp(`Overall risk: <span class="pill [^"]+">${levels[stored.overall_level]}<`),
      );
      for (const r of stored.register) expect(result.text).toContain(`${r.likelihood} × ${r.impact} = ${r.score}`);
      expect(result.text).toContain(`Version ${stored.version}, assessed ${stored.assessed_at.slice(0, 10)}`);

      // The API, given the same answers, returns the same assessment.
      const viaApi = await t.request(`/v1/a2a/sra/${NPI}`, {
        method: "POST",
        headers: { "X-API-Key": owner.apiKey },
        body: {
          responses: {
            "basics.security_official": { answer: "yes", note: "Dr. Lee since 2024" },
            "data.encryption_at_rest": { answer: "yes" },
          },
        },
      });
      expect(viaApi.status).toBe(200);
      expect(viaApi.headers["x-credits-charged"]).toBe(String(SRA));
      expect(comparable(SraReportSchema.parse(viaApi.json))).toEqual(comparable(stored));

      const again = await manager.get(`/portal/practices/${NPI}/risk-assessment`);
      expect(again.text).toContain(`/portal/practices/${NPI}/risk-assessment/result`);
      expect(questionHtml(again.text, "data.encryption_at_rest")).toContain("claims more than the scans show");
    });
  });
}

sraSuite("sqlite");
describe.skipIf(!(await shouldRunPostgres()))("on PostgreSQL", () => sraSuite("postgres"));

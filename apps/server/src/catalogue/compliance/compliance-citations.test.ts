import { ComplianceStateSchema, FindingsPageSchema, withNpiCheckDigit } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * A requirement cites only findings the practice holds: the open findings its grade counted, which hipaa.findings
 * lists and a scan's report prints. An administrative record that went out of date with time (an SRA past 12
 * months) with no write since reads not met, without citing a finding that no grade or list holds.
 */

const runPg = await shouldRunPostgres();
const NPI = withNpiCheckDigit("173001402");

function suite(engine: "sqlite" | "postgres") {
  describe(`requirement citations on ${engine}`, () => {
    let t: TestServer;
    let clock = new Date("2026-01-10T09:00:00.000Z");
    let owner: Awaited<ReturnType<typeof accountWithKey>>;
    const get = (path: string) => t.request(path, { headers: { "X-API-Key": owner.apiKey } });

    beforeAll(async () => {
      t = await startTestServer({ engine, now: () => clock });
      owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 5_000 });
      await gradedPractice(t.server.deps, owner.accountId, NPI);
      const sra = await t.request(`/v1/a2a/sra/${NPI}`, {
        method: "POST",
        headers: { "X-API-Key": owner.apiKey },
        body: {},
      });
      expect(sra.status, sra.text).toBe(200);
      // Fourteen months on, nothing written since: the SRA is out of date.
      clock = new Date("2027-03-10T09:00:00.000Z");
    });
    afterAll(async () => {
      await t?.close();
    });

    it("cites, under each requirement, only open findings hipaa.findings lists", async () => {
      const state = ComplianceStateSchema.parse((await get(`/v1/a2a/compliance/${NPI}`)).json);
      const page = FindingsPageSchema.parse((await get(`/v1/a2a/findings/${NPI}?limit=200`)).json);
      const listed = new Set(page.findings.map((f) => f.id));
      const cited = state.requirements.flatMap((r) => r.evidence.flatMap((e) => e.findings));
      for (const id of cited) expect(listed).toContain(id);
      const risk = state.requirements.find((r) => r.title === "Security risk assessment")!;
      const sra = risk.evidence.find((e) => e.detail.includes("SRA"))!;
      expect(sra).toMatchObject({ state: "not_met" });
      expect(sra.detail).toMatch(/more than 12 months old/);
    });
  });
}

suite("sqlite");
describe.skipIf(!runPg)("postgres", () => suite("postgres"));

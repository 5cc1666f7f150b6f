import { AgentListSchema, ONE_SHOT_AGENT_LIFETIME } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAgentKeys, registrationBody, scanDocument, uploadHeaders } from "../../test-support/agent-client.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

// One CI script ran `hcs-scanner one-shot` nine times on one machine ("vm"), and the practice's scanners listed nine
// identical active rows for ever. One-shot agents (registered ephemeral) are listed apart, grouped by machine, and
// expire: an hour after their last upload, a day after registering when they never uploaded.

const NPI = "1234567893";
const HOUR = 3_600_000;

function oneShotSuite(engine: "sqlite" | "postgres") {
  describe(`one-shot agents (${engine}, over HTTPS)`, () => {
    let t: TestServer;
    let owner: Awaited<ReturnType<typeof accountWithKey>>;
    let clock = new Date("2026-11-22T09:00:00.000Z");
    const later = (ms: number) => {
      clock = new Date(clock.getTime() + ms);
    };

    beforeAll(async () => {
      t = await startTestServer({ engine, now: () => clock });
      owner = await accountWithKey(t.server.deps, { plan: "professional", credits: 1000 });
      await gradedPractice(t.server.deps, owner.accountId, NPI);
    });
    afterAll(() => t.close());

    const asOwner = (path: string, method = "GET") =>
      t.request(path, { method, headers: { "X-API-Key": owner.apiKey } });
    const register = async (hostname: string, ephemeral: boolean) => {
      const token = (await asOwner(`/v1/a2a/network/deploy/${NPI}`, "POST")).json.deploy_token as string;
      const keys = newAgentKeys();
      const res = await t.request("/v1/a2a/network/register", {
        method: "POST",
        body: { ...registrationBody(token, keys, hostname), ephemeral },
      });
      expect(res.status, res.text).toBe(201);
      return { agentId: res.json.agent_id as string, keys };
    };
    const upload = (agent: { agentId: string; keys: ReturnType<typeof newAgentKeys> }, hostname: string) => {
      const doc = scanDocument(agent.agentId, { hostname });
      const body = JSON.stringify(doc);
      return t.request("/v1/a2a/network/results", {
        method: "POST",
        headers: uploadHeaders(agent.agentId, doc.scan_id, body, agent.keys.privateKey),
        body,
      });
    };
    const list = async () => {
      const res = await asOwner(`/v1/a2a/network/agents/${NPI}`);
      expect(res.status, res.text).toBe(200);
      return AgentListSchema.parse(res.json);
    };

    it("nine one-shot runs of one machine are one group beside the installed scanner, each marked and expiring", async () => {
      const installed = await register("frontdesk-01", false);
      expect((await upload(installed, "frontdesk-01")).status).toBe(201);
      const runs = [];
      for (let i = 0; i < 9; i++) {
        later(60_000);
        const run = await register("vm", true);
        expect((await upload(run, "vm")).status).toBe(201);
        runs.push(run);
      }
      const listed = await list();
      expect(listed.agents.map((a) => [a.hostname, a.ephemeral, a.state, a.expires_at])).toEqual([
        ["frontdesk-01", false, "active", null],
      ]);
      expect(listed.one_shot).toHaveLength(1);
      const [group] = listed.one_shot;
      expect(group).toMatchObject({
        hostname: "vm",
        platform: "linux",
        runs: 9,
        active: 9,
        expired: 0,
        revoked: 0,
        last_upload_at: clock.toISOString(),
      });
      expect(group!.active_agents.map((a) => a.agent_id)).toEqual(runs.map((r) => r.agentId));
      expect(group!.active_agents.every((a) => a.ephemeral && a.state === "active")).toBe(true);
      // An hour after its last upload.
      expect(group!.active_agents.at(-1)!.expires_at).toBe(
        new Date(clock.getTime() + ONE_SHOT_AGENT_LIFETIME.hours_after_last_upload * HOUR).toISOString(),
      );

      // 55.5 minutes on, the four runs that uploaded more than an hour ago have expired: counted, not listed as active.
      later(ONE_SHOT_AGENT_LIFETIME.hours_after_last_upload * HOUR - 4.5 * 60_000);
      const partly = (await list()).one_shot[0]!;
      expect([partly.runs, partly.active, partly.expired]).toEqual([9, 5, 4]);
      expect(partly.active_agents.map((a) => a.agent_id)).toEqual(runs.slice(4).map((r) => r.agentId));

      // An expired run cannot upload any more (the installed scanner still can).
      const refused = await upload(runs[0]!, "vm");
      expect([refused.status, refused.json.error.code]).toEqual([403, "agent_expired"]);
      expect((await upload(runs[8]!, "vm")).status).toBe(201);
      expect((await upload(installed, "frontdesk-01")).status).toBe(201);

      // Later still, the whole group has expired; the installed scanner is unaffected.
      later(2 * HOUR);
      const after = await list();
      expect(after.agents.map((a) => a.state)).toEqual(["active"]);
      expect(after.one_shot[0]).toMatchObject({ runs: 9, active: 0, expired: 9, active_agents: [] });
      expect((await upload(runs[8]!, "vm")).json.error.code).toBe("agent_expired");
      expect((await upload(installed, "frontdesk-01")).status).toBe(201);
    });

    it("a one-shot agent that never uploaded may still upload for a day after it registered, not after", async () => {
      const run = await register("ci-runner-2", true);
      later(ONE_SHOT_AGENT_LIFETIME.hours_before_first_upload * HOUR - 60_000);
      const group = (await list()).one_shot.find((g) => g.hostname === "ci-runner-2")!;
      expect([group.active, group.last_upload_at]).toEqual([1, null]);
      later(2 * 60_000);
      const refused = await upload(run, "ci-runner-2");
      expect([refused.status, refused.json.error.code]).toEqual([403, "agent_expired"]);
      expect((await list()).one_shot.find((g) => g.hostname === "ci-runner-2")).toMatchObject({
        active: 0,
        expired: 1,
      });
    });

    it("a revoked one-shot run is counted as revoked in its group and its uploads are refused agent_revoked", async () => {
      const run = await register("ci-runner-3", true);
      const revoked = await asOwner(`/v1/a2a/network/agents/${run.agentId}/revoke`, "POST");
      expect(revoked.json).toMatchObject({ ephemeral: true, state: "revoked" });
      expect((await list()).one_shot.find((g) => g.hostname === "ci-runner-3")).toMatchObject({
        runs: 1,
        active: 0,
        revoked: 1,
      });
      expect((await upload(run, "ci-runner-3")).json.error.code).toBe("agent_revoked");
    });
  });
}

oneShotSuite("sqlite");
const runPg = await shouldRunPostgres();
describe.skipIf(!runPg)("postgres", () => oneShotSuite("postgres"));

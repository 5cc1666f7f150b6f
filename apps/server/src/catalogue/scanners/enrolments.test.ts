import { AgentListSchema, DeployTokenListSchema, DeployTokenViewSchema } from "@hcs/protocol";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccount } from "../../services/accounts.js";
import { issueApiKey, revokeApiKey } from "../../services/api-keys.js";
import { newAgentKeys, registrationBody, uploadRequest } from "../../test-support/agent-client.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
let stranger: Awaited<ReturnType<typeof accountWithKey>>;
const NPI = "1234567893";

beforeAll(async () => {
  t = await startTestServer({ now: () => new Date("2026-11-22T01:00:00.000Z") });
  owner = await accountWithKey(t.server.deps, { plan: "professional", credits: 1000 });
  stranger = await accountWithKey(t.server.deps, { credits: 1000 });
  await gradedPractice(t.server.deps, owner.accountId, NPI);
});
afterAll(async () => {
  await t.close();
});

const asOwner = (path: string, method = "GET", key = owner.apiKey) =>
  t.request(path, { method, headers: { "X-API-Key": key } });
const deployToken = async (key = owner.apiKey): Promise<string> => {
  const res = await asOwner(`/v1/a2a/network/deploy/${NPI}`, "POST", key);
  expect(res.status, res.text).toBe(201);
  return res.json.deploy_token;
};
const register = (token: string, hostname = "frontdesk-01", keys = newAgentKeys()) =>
  t.request("/v1/a2a/network/register", { method: "POST", body: registrationBody(token, keys, hostname) });
const upload = (agentId: string, keys: ReturnType<typeof newAgentKeys>) =>
  t.request("/v1/a2a/network/results", uploadRequest(agentId, keys.privateKey));
const auditResources = async (action: string) =>
  (
    await t.server.deps.store.db.selectFrom("audit_events").select("resource").where("action", "=", action).execute()
  ).map((r) => r.resource);

describe("scanner agents and deploy tokens: the practice owner's view and revocation", () => {
  it("enrolment is one transaction: a registration whose agent insert fails leaves the token's use unspent", async () => {
    await sql`create trigger refuse_host before insert on agents when new.hostname = 'refused-host'
              begin select raise(abort, 'hostname refused'); end`.execute(t.server.deps.store.db);
    const token = await deployToken();
    const failed = await register(token, "refused-host");
    expect([failed.status, failed.json.error.code]).toEqual([500, "internal"]);
    const retried = await register(token, "frontdesk-01");
    expect(retried.status, retried.text).toBe(201);
  });

  it("a revoked agent's signed uploads get 403 agent_revoked; revoking is idempotent, audited and owner-only", async () => {
    const keys = newAgentKeys();
    const agentId = (await register(await deployToken(), "exam-room-1", keys)).json.agent_id as string;
    expect((await upload(agentId, keys)).status).toBe(201);

    const foreign = await asOwner(`/v1/a2a/network/agents/${agentId}/revoke`, "POST", stranger.apiKey);
    expect([foreign.status, foreign.json.error.code]).toEqual([403, "forbidden"]);
    expect((await upload(agentId, keys)).status).toBe(201);

    const revoked = await asOwner(`/v1/a2a/network/agents/${agentId}/revoke`, "POST");
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.json).toMatchObject({ agent_id: agentId, hostname: "exam-room-1", revoked_at: expect.any(String) });
    const refused = await upload(agentId, keys);
    expect([refused.status, refused.json.error.code]).toEqual([403, "agent_revoked"]);
    // Only the agent's own key learns that it was revoked.
    const forged = await upload(agentId, newAgentKeys());
    expect([forged.status, forged.json.error.code]).toEqual([401, "invalid_signature"]);
    const again = await asOwner(`/v1/a2a/network/agents/${agentId}/revoke`, "POST");
    expect(again.json).toEqual(revoked.json);
    expect(await auditResources("revokeAgent")).toContain(`agent:${agentId}`);

    for (const unknown of ["agt_AAAAAAAAAAAAAAAA", "not-an-agent-id"]) {
      const res = await asOwner(`/v1/a2a/network/agents/${unknown}/revoke`, "POST");
      expect([res.status, res.json.error.code]).toEqual([404, "not_found"]);
    }
  });

  it("the owner lists agents and deploy tokens (no key material, not metered); others get 403, unknown NPIs 404", async () => {
    const before = (await getAccount(t.server.deps, owner.accountId)).credits;
    const agents = await asOwner(`/v1/a2a/network/agents/${NPI}`);
    expect(agents.status, agents.text).toBe(200);
    expect(agents.headers["x-ratelimit-limit"]).toBeDefined();
    const list = AgentListSchema.parse(agents.json);
    expect(list.npi).toBe(NPI);
    // The test clock stands still, so both agents registered at the same instant: compare in a fixed order.
    expect(list.agents.map((a) => [a.hostname, a.revoked_at === null]).sort()).toEqual([
      ["exam-room-1", false],
      ["frontdesk-01", true],
    ]);
    expect(agents.text).not.toContain("public_key");

    const tokens = await asOwner(`/v1/a2a/network/deploy-tokens/${NPI}`);
    expect(tokens.status, tokens.text).toBe(200);
    const tokenList = DeployTokenListSchema.parse(tokens.json);
    expect(tokenList.deploy_tokens.map((d) => [d.state, d.uses, d.max_uses, d.created_by_key_id])).toEqual([
      ["used", 1, 1, owner.keyId],
      ["used", 1, 1, owner.keyId],
    ]);
    expect(tokens.text).not.toMatch(/hcsdt1\.|token_hash/);
    expect((await getAccount(t.server.deps, owner.accountId)).credits).toBe(before);

    for (const path of [`/v1/a2a/network/agents/${NPI}`, `/v1/a2a/network/deploy-tokens/${NPI}`]) {
      const other = await asOwner(path, "GET", stranger.apiKey);
      expect([other.status, other.json.error.code]).toEqual([403, "forbidden"]);
      expect((await asOwner(path.replace(NPI, "1306849450"))).json.error.code).toBe("npi_not_found");
      expect((await asOwner(path.replace(NPI, "1234567890"))).json.error.code).toBe("invalid_npi");
      expect((await t.request(path)).json.error.code).toBe("missing_credentials");
    }
  });

  it("a token revoked by id is refused at registration with 401 deploy_token_revoked", async () => {
    const token = await deployToken();
    const listed = DeployTokenListSchema.parse((await asOwner(`/v1/a2a/network/deploy-tokens/${NPI}`)).json);
    const active = listed.deploy_tokens.filter((d) => d.state === "active");
    expect(active).toHaveLength(1);
    const tokenId = active[0]!.token_id;

    const foreign = await asOwner(`/v1/a2a/network/deploy-tokens/${tokenId}/revoke`, "POST", stranger.apiKey);
    expect([foreign.status, foreign.json.error.code]).toEqual([403, "forbidden"]);
    const revoked = await asOwner(`/v1/a2a/network/deploy-tokens/${tokenId}/revoke`, "POST");
    expect(revoked.status, revoked.text).toBe(200);
    expect(DeployTokenViewSchema.parse(revoked.json)).toMatchObject({ token_id: tokenId, state: "revoked", uses: 0 });
    expect((await asOwner(`/v1/a2a/network/deploy-tokens/${tokenId}/revoke`, "POST")).json).toEqual(revoked.json);
    const refused = await register(token);
    expect([refused.status, refused.json.error.code]).toEqual([401, "deploy_token_revoked"]);
    expect(await auditResources("revokeDeployToken")).toContain(`deploy_token:${tokenId}`);
    const unknown = await asOwner("/v1/a2a/network/deploy-tokens/dpt_AAAAAAAAAAAAAAAA/revoke", "POST");
    expect([unknown.status, unknown.json.error.code]).toEqual([404, "not_found"]);
  });

  it("revoking an API key refuses the deploy tokens it created; scanners it enrolled keep uploading", async () => {
    const second = await issueApiKey(t.server.deps, { accountId: owner.accountId, label: "onboarding laptop" });
    const secondKey = second.apiKey;
    const keys = newAgentKeys();
    const enrolled = await register(await deployToken(secondKey), "exam-room-2", keys);
    expect(enrolled.status).toBe(201);
    const pending = await deployToken(secondKey);
    await revokeApiKey(t.server.deps, second.keyId);

    const refused = await register(pending);
    expect([refused.status, refused.json.error.code]).toEqual([401, "deploy_token_revoked"]);
    expect((await upload(enrolled.json.agent_id, keys)).status).toBe(201);
    // The owner's other key and its tokens are untouched.
    expect((await register(await deployToken(), "exam-room-3")).status).toBe(201);
  });
});

import { AgentRegistrationRequestSchema, DeployTokenViewSchema } from "@hcs/protocol";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../secrets/master-key.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Store } from "../store/store.js";
import { newAgentKeys, registrationBody, signedUpload } from "../test-support/agent-client.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { forEachEngine, type OpenTestStore } from "../test-support/store-engines.js";
import { acceptScanUpload, registerAgent } from "./agents.js";
import { issueApiKey, revokeApiKey } from "./api-keys.js";
import { deployTokenHash, issueDeployToken, listDeployTokens, revokeDeployToken } from "./deploy-tokens.js";
import type { ServiceDeps } from "./deps.js";
import { listAgents, revokeAgent } from "./enrolled-agents.js";
import { OPERATOR } from "./enrolment-scope.js";

const SERVER = "https://127.0.0.1:8443";
const CA = "a".repeat(64);

/**
 * Scanner enrolment and revocation, run against every engine: registration is one transaction, and revoking a key,
 * a token or an agent takes effect the way docs/security.md says.
 */
function enrolmentSuite(engine: Engine, open: OpenTestStore) {
  describe(`enrolment on ${engine}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let deps: ServiceDeps;
    let clock = new Date("2026-11-22T10:00:00.000Z");
    let owner: Awaited<ReturnType<typeof accountWithKey>>;
    let stranger: Awaited<ReturnType<typeof accountWithKey>>;
    const NPI = "1234567893";
    const OTHER_NPI = "1245319599";

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.migrate();
      deps = { store, now: () => clock, secrets: createSecretBox(Buffer.alloc(32, 7)) };
      owner = await accountWithKey(deps, { plan: "professional" });
      stranger = await accountWithKey(deps);
      await gradedPractice(deps, owner.accountId, NPI);
      await gradedPractice(deps, stranger.accountId, OTHER_NPI);
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    const token = async (o: { keyId?: string; npi?: string; maxUses?: number; hours?: number } = {}) => {
      // A second apart, so listings (oldest first) put the newest token last.
      clock = new Date(clock.getTime() + 1_000);
      return (
        await issueDeployToken(deps, {
          accountId: o.npi === OTHER_NPI ? stranger.accountId : owner.accountId,
          keyId: o.keyId ?? owner.keyId,
          npi: o.npi ?? NPI,
          serverUrl: SERVER,
          caSha256: CA,
          ...(o.maxUses ? { maxUses: o.maxUses } : {}),
          ...(o.hours ? { expiresInHours: o.hours } : {}),
        })
      ).deploy_token;
    };
    /** Another key of the owner's account (what `hcs-server keys create` does). */
    const anotherOwnerKey = () => issueApiKey(deps, { accountId: owner.accountId });
    const register = (deployToken: string, hostname = "frontdesk-01", keys = newAgentKeys()) =>
      registerAgent(deps, AgentRegistrationRequestSchema.parse(registrationBody(deployToken, keys, hostname)), SERVER);
    const usesOf = async (deployToken: string) =>
      (
        await store.db
          .selectFrom("deploy_tokens")
          .select("uses")
          .where("token_hash", "=", deployTokenHash(deployToken))
          .executeTakeFirstOrThrow()
      ).uses;
    const upload = (agentId: string, keys: ReturnType<typeof newAgentKeys>) =>
      acceptScanUpload(deps, signedUpload(agentId, keys.privateKey));

    it("enrolment is one transaction: an agent insert that fails does not spend the token's use", async () => {
      // A database-level refusal of one hostname stands in for any failure of the insert (constraint, disk, lost
      // connection) after the token's use was counted.
      if (engine === "sqlite") {
        await sql`create trigger refuse_host before insert on agents when new.hostname = 'refused-host'
                  begin select raise(abort, 'hostname refused'); end`.execute(store.db);
      } else {
        await sql`create function refuse_host() returns trigger language plpgsql as $$
                  begin if new.hostname = 'refused-host' then raise exception 'hostname refused'; end if; return new; end $$`.execute(
          store.db,
        );
        await sql`create trigger refuse_host before insert on agents for each row execute function refuse_host()`.execute(
          store.db,
        );
      }
      const oneUse = await token();
      await expect(register(oneUse, "refused-host")).rejects.toThrow(/hostname refused/);
      expect(await usesOf(oneUse)).toBe(0);
      const registered = await register(oneUse, "frontdesk-01");
      expect(registered.npi).toBe(NPI);
      expect(await usesOf(oneUse)).toBe(1);
    });

    it("answers a retried registration (same key, same token) with the same agent, spending no other use", async () => {
      const oneUse = await token();
      const keys = newAgentKeys();
      const first = await register(oneUse, "retry-host", keys);
      const again = await register(oneUse, "retry-host", keys);
      expect(again).toEqual(first);
      expect(await usesOf(oneUse)).toBe(1);
      expect(
        await store.db.selectFrom("agents").select("id").where("hostname", "=", "retry-host").execute(),
      ).toHaveLength(1);
      // Another key with the used-up token is a new registration, refused as before.
      await expect(register(oneUse, "retry-host")).rejects.toMatchObject({ code: "deploy_token_used" });
    });

    it("lists deploy tokens with their state, never the token or its hash", async () => {
      const listed = await listDeployTokens(deps, OPERATOR, { npi: NPI });
      expect(listed.length).toBeGreaterThan(0);
      for (const t of listed) DeployTokenViewSchema.parse(t);
      expect(listed.at(-1)).toMatchObject({ state: "used", uses: 1, max_uses: 1, created_by_key_id: owner.keyId });
      const text = JSON.stringify(listed);
      const hashes = await store.db.selectFrom("deploy_tokens").select("token_hash").execute();
      for (const h of hashes) expect(text).not.toContain(h.token_hash);
      expect(text).not.toContain("hcsdt1.");
      const expiring = await token({ hours: 1 });
      clock = new Date(clock.getTime() + 2 * 3_600_000);
      expect((await listDeployTokens(deps, OPERATOR, { npi: NPI })).at(-1)?.state).toBe("expired");
      await expect(register(expiring)).rejects.toMatchObject({ code: "deploy_token_expired" });
    });

    it("a revoked token is refused with deploy_token_revoked; revoking again changes nothing", async () => {
      const t = await token();
      const [view] = (await listDeployTokens(deps, OPERATOR, { npi: NPI })).slice(-1);
      const first = await revokeDeployToken(deps, OPERATOR, view!.token_id);
      expect(first).toMatchObject({ state: "revoked", revoked_at: clock.toISOString() });
      clock = new Date(clock.getTime() + 60_000);
      expect(await revokeDeployToken(deps, OPERATOR, view!.token_id)).toEqual(first);
      await expect(register(t)).rejects.toMatchObject({ code: "deploy_token_revoked" });
      await expect(revokeDeployToken(deps, OPERATOR, "dpt_AAAAAAAAAAAAAAAA")).rejects.toMatchObject({
        code: "not_found",
      });
    });

    it("revoking an API key revokes the tokens it created (not others), but not the agents they enrolled", async () => {
      const second = await anotherOwnerKey();
      const keys = newAgentKeys();
      const enrolled = await register(await token({ keyId: second.keyId, maxUses: 2 }), "exam-room-1", keys);
      const pending = await token({ keyId: second.keyId, maxUses: 5 });
      const fromOwnerKey = await token();
      const revoked = await revokeApiKey(deps, second.keyId);
      expect(revoked.deployTokensRevoked).toBe(2);
      await expect(register(pending)).rejects.toMatchObject({ code: "deploy_token_revoked" });
      const states = (await listDeployTokens(deps, OPERATOR, { npi: NPI })).filter(
        (t) => t.created_by_key_id === second.keyId,
      );
      expect(states.map((t) => [t.state, t.revoked_at])).toEqual([
        ["revoked", revoked.revokedAt],
        ["revoked", revoked.revokedAt],
      ]);
      // The scanner enrolled with that key's token is its own identity and keeps uploading.
      expect((await upload(enrolled.agent_id, keys)).created).toBe(true);
      expect((await register(fromOwnerKey, "exam-room-2")).npi).toBe(NPI);
      // Idempotent: the key stays revoked at the same instant and nothing more is revoked.
      expect(await revokeApiKey(deps, second.keyId)).toEqual({ ...revoked, deployTokensRevoked: 0 });
    });

    it("refuses a token whose key was revoked without revoking the token (rows from before this release)", async () => {
      const third = await anotherOwnerKey();
      const legacy = await token({ keyId: third.keyId });
      await store.db
        .updateTable("api_keys")
        .set({ revoked_at: clock.toISOString() })
        .where("id", "=", third.keyId)
        .execute();
      await expect(register(legacy)).rejects.toMatchObject({ code: "deploy_token_revoked" });
      expect((await listDeployTokens(deps, OPERATOR, { npi: NPI })).at(-1)).toMatchObject({
        state: "revoked",
        revoked_at: clock.toISOString(),
        uses: 0,
      });
    });

    it("a revoked agent's uploads are refused with agent_revoked; the list shows when it was revoked", async () => {
      const keys = newAgentKeys();
      const agent = await register(await token(), "lab-pc", keys);
      expect((await upload(agent.agent_id, keys)).created).toBe(true);
      const revoked = await revokeAgent(deps, OPERATOR, agent.agent_id);
      expect(revoked).toMatchObject({ agent_id: agent.agent_id, hostname: "lab-pc", revoked_at: clock.toISOString() });
      expect(revoked).not.toHaveProperty("public_key");
      expect(JSON.stringify(revoked)).not.toContain(keys.publicKey);
      await expect(upload(agent.agent_id, keys)).rejects.toMatchObject({ code: "agent_revoked" });
      clock = new Date(clock.getTime() + 60_000);
      expect(await revokeAgent(deps, OPERATOR, agent.agent_id)).toEqual(revoked);
      const listed = await listAgents(deps, OPERATOR, { npi: NPI });
      expect(listed.find((a) => a.agent_id === agent.agent_id)?.revoked_at).toBe(revoked.revoked_at);
      await expect(revokeAgent(deps, OPERATOR, "agt_AAAAAAAAAAAAAAAA")).rejects.toMatchObject({ code: "not_found" });
    });

    it("an account manages only its own practices' agents and tokens; the operator filters by account or NPI", async () => {
      const mine = { by: "account", accountId: owner.accountId } as const;
      const theirs = { by: "account", accountId: stranger.accountId } as const;
      const strangerAgent = await register(await token({ npi: OTHER_NPI, keyId: stranger.keyId }), "their-pc");
      await expect(listAgents(deps, theirs, { npi: NPI })).rejects.toMatchObject({ code: "forbidden" });
      await expect(listDeployTokens(deps, theirs, { npi: NPI })).rejects.toMatchObject({ code: "forbidden" });
      await expect(revokeAgent(deps, mine, strangerAgent.agent_id)).rejects.toMatchObject({ code: "forbidden" });
      const [theirToken] = await listDeployTokens(deps, theirs, { npi: OTHER_NPI });
      await expect(revokeDeployToken(deps, mine, theirToken!.token_id)).rejects.toMatchObject({ code: "forbidden" });
      expect((await listAgents(deps, theirs, { npi: OTHER_NPI })).map((a) => a.hostname)).toEqual(["their-pc"]);
      expect((await listAgents(deps, OPERATOR, { accountId: stranger.accountId })).map((a) => a.hostname)).toEqual([
        "their-pc",
      ]);
      expect((await listAgents(deps, OPERATOR, {})).length).toBeGreaterThan(1);
      await expect(listAgents(deps, OPERATOR, { npi: "1306849450" })).rejects.toMatchObject({
        code: "npi_not_found",
      });
      await expect(listAgents(deps, OPERATOR, { npi: "1234567890" })).rejects.toMatchObject({ code: "invalid_npi" });
      await expect(listDeployTokens(deps, OPERATOR, { accountId: "acct_nope" })).rejects.toMatchObject({
        code: "not_found",
      });
    });
  });
}

forEachEngine(enrolmentSuite);

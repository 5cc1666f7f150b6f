import { AgentRegistrationRequestSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../secrets/master-key.js";
import type { Engine } from "../../store/migrations/engine.js";
import type { Store } from "../../store/store.js";
import { newAgentKeys, registrationBody, signedUpload } from "../../test-support/agent-client.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { forEachEngine, type OpenTestStore } from "../../test-support/store-engines.js";
import { acceptScanUpload, registerAgent } from "../agents.js";
import { issueDeployToken, listDeployTokens } from "../deploy-tokens.js";
import type { ServiceDeps } from "../deps.js";
import { listAgents } from "../enrolled-agents.js";
import { OPERATOR } from "../enrolment-scope.js";
import { DIRECTORY_ACCOUNT_ID, overrideClaim, revokeClaim } from "./claims.js";

const SERVER = "https://127.0.0.1:8443";
const CA = "a".repeat(64);

/**
 * A change of owner ends the other accounts' enrolments on the practice (services/claims/ownership.ts): the operator's
 * override and revocation here, a lapsed proof in catalogue/practices/onboarding.test.ts. On every engine.
 */
function ownershipSuite(engine: Engine, open: OpenTestStore) {
  describe(`a change of owner on ${engine}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let deps: ServiceDeps;
    let clock = new Date("2026-12-02T10:00:00.000Z");
    let seller: Awaited<ReturnType<typeof accountWithKey>>;
    let buyer: Awaited<ReturnType<typeof accountWithKey>>;
    const NPI = "1234567893";
    const SELLERS_OTHER_NPI = "1245319599";

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.migrate();
      deps = { store, now: () => clock, secrets: createSecretBox(Buffer.alloc(32, 7)) };
      seller = await accountWithKey(deps, { plan: "professional" });
      buyer = await accountWithKey(deps, { plan: "professional" });
      await gradedPractice(deps, seller.accountId, NPI);
      await gradedPractice(deps, seller.accountId, SELLERS_OTHER_NPI);
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    const tick = () => {
      clock = new Date(clock.getTime() + 1_000);
      return clock.toISOString();
    };
    const token = async (account: { accountId: string; keyId: string }, npi = NPI) =>
      (
        await issueDeployToken(deps, {
          accountId: account.accountId,
          keyId: account.keyId,
          npi,
          serverUrl: SERVER,
          caSha256: CA,
          maxUses: 5,
        })
      ).deploy_token;
    const enrol = async (deployToken: string) => {
      const keys = newAgentKeys();
      const body = AgentRegistrationRequestSchema.parse(registrationBody(deployToken, keys, "frontdesk-01"));
      return { keys, agentId: (await registerAgent(deps, body, SERVER)).agent_id };
    };
    const upload = ({ agentId, keys }: { agentId: string; keys: ReturnType<typeof newAgentKeys> }) =>
      acceptScanUpload(deps, signedUpload(agentId, keys.privateKey));
    const stateOf = async (agentId: string, npi = NPI) =>
      (await listAgents(deps, OPERATOR, { npi })).find((a) => a.agent_id === agentId);

    let sellers: Awaited<ReturnType<typeof enrol>>;
    let sellersSpare: string;
    let sellersElsewhere: Awaited<ReturnType<typeof enrol>>;
    let buyers: Awaited<ReturnType<typeof enrol>>;

    it("the operator's override gives the practice to another account: the seller's scanners and tokens end", async () => {
      tick();
      sellers = await enrol(await token(seller));
      sellersSpare = await token(seller);
      sellersElsewhere = await enrol(await token(seller, SELLERS_OTHER_NPI));
      expect((await upload(sellers)).created).toBe(true);

      const at = tick();
      await overrideClaim(deps, { npi: NPI, accountId: buyer.accountId, reason: "the practice was sold" });

      expect(await stateOf(sellers.agentId)).toMatchObject({ state: "revoked", revoked_at: at });
      const tokens = await listDeployTokens(deps, OPERATOR, { npi: NPI });
      expect(tokens.map((t) => [t.account_id, t.state])).toEqual([
        [seller.accountId, "revoked"],
        [seller.accountId, "revoked"],
      ]);
      await expect(upload(sellers)).rejects.toMatchObject({ code: "agent_revoked" });
      await expect(enrol(sellersSpare)).rejects.toMatchObject({ code: "deploy_token_revoked" });
      // The seller's enrolments on the practice it still owns are untouched.
      expect(await stateOf(sellersElsewhere.agentId, SELLERS_OTHER_NPI)).toMatchObject({ state: "active" });
      expect((await upload(sellersElsewhere)).created).toBe(true);
    });

    it("the new owner enrols its own scanners; overriding to the owner again keeps them", async () => {
      buyers = await enrol(await token(buyer));
      expect((await upload(buyers)).created).toBe(true);
      tick();
      await overrideClaim(deps, { npi: NPI, accountId: buyer.accountId, reason: "confirmed with the official" });
      expect(await stateOf(buyers.agentId)).toMatchObject({ state: "active", revoked_at: null });
      expect((await upload(buyers)).created).toBe(true);
    });

    it("revoking the owner's claim returns the practice to the directory and ends the owner's enrolments", async () => {
      const [owning] = await store.db
        .selectFrom("practice_claims")
        .select("id")
        .where("npi", "=", NPI)
        .where("status", "=", "proved")
        .execute();
      const at = tick();
      await revokeClaim(deps, owning!.id, "ownership disputed");
      const practice = await store.db
        .selectFrom("practices")
        .select("account_id")
        .where("npi", "=", NPI)
        .executeTakeFirstOrThrow();
      expect(practice.account_id).toBe(DIRECTORY_ACCOUNT_ID);
      expect(await stateOf(buyers.agentId)).toMatchObject({ state: "revoked", revoked_at: at });
      await expect(upload(buyers)).rejects.toMatchObject({ code: "agent_revoked" });
      // A revocation time once set is kept: the seller's scanner still says when its authority ended.
      expect((await stateOf(sellers.agentId))?.revoked_at).not.toBe(at);
    });
  });
}

forEachEngine(ownershipSuite);

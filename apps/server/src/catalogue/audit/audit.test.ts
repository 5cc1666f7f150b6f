import { AuditProofBundleSchema, verifyAuditProof } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpoint } from "../../audit/checkpoints.js";
import { nodeEd25519Verify } from "../../audit/log-key.js";
import { sequenceAuditLog } from "../../audit/sequencer.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { independentlyVerify } from "../../test-support/independent-audit-verifier.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
let stranger: Awaited<ReturnType<typeof accountWithKey>>;
const NPI = "1234567893";

beforeAll(async () => {
  t = await startTestServer();
  owner = await accountWithKey(t.server.deps, { credits: 1000 });
  stranger = await accountWithKey(t.server.deps, { credits: 1000 });
  await gradedPractice(t.server.deps, owner.accountId, NPI);
});
afterAll(async () => {
  await t.close();
});

const get = (path: string, key: string) => t.request(path, { headers: { "X-API-Key": key } });
const lookup = (key: string) => get(`/v1/a2a/grade/${NPI}`, key);
const eventsOf = (accountId: string) =>
  t.server.deps.store.db
    .selectFrom("audit_events")
    .select(["id", "action"])
    .where("actor_account_id", "=", accountId)
    .orderBy("id")
    .execute();
const checkpointNow = async () => {
  await sequenceAuditLog(t.server.deps.store);
  return createCheckpoint(t.server.deps.store, t.server.deps.auditLogKey!, new Date());
};

describe("audit proofs on the API", () => {
  it("answers 409 not_checkpointed before the first checkpoint, then the latest signed checkpoint", async () => {
    const before = await get("/v1/a2a/audit/checkpoints/latest", owner.apiKey);
    expect(before.status).toBe(409);
    expect(before.json.error.code).toBe("not_checkpointed");
    for (let i = 0; i < 3; i++) expect((await lookup(owner.apiKey)).status).toBe(200);
    const made = await checkpointNow();
    const res = await get("/v1/a2a/audit/checkpoints/latest", owner.apiKey);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      size: made!.size,
      root_hash: made!.rootHash,
      note: made!.note,
      anchor: null,
      verifier_key: t.server.deps.auditLogKey!.verifierKey,
    });
  });

  it("gives the caller's own event with a proof that both our verifier and an independent one accept", async () => {
    for (let i = 0; i < 5; i++) expect((await lookup(owner.apiKey)).status).toBe(200);
    expect((await lookup(stranger.apiKey)).status).toBe(200);
    await checkpointNow();
    const events = await eventsOf(owner.accountId);
    expect(events.length).toBeGreaterThanOrEqual(8);
    for (const event of events.slice(0, 8)) {
      const res = await get(`/v1/a2a/audit/events/${event.id}/proof`, owner.apiKey);
      expect(res.status, res.text).toBe(200);
      const bundle = AuditProofBundleSchema.parse(res.json);
      expect(bundle.event.record).toMatchObject({ v: 1, actor: { account_id: owner.accountId } });
      const keyText = (await t.request("/.well-known/hcs-audit-log-key")).text;
      expect(verifyAuditProof(bundle, { verify: nodeEd25519Verify, trustedKey: keyText })).toMatchObject({
        ok: true,
        keyTrusted: true,
      });
      expect(independentlyVerify(res.json, keyText)).toBeNull();
      // The same bundle with one field of the record changed fails both.
      const forged = structuredClone(res.json);
      forged.event.record.status = 500;
      expect(independentlyVerify(forged, keyText)).toBe("leaf hash");
      expect(verifyAuditProof(forged, { verify: nodeEd25519Verify, trustedKey: keyText }).ok).toBe(false);
    }
  });

  it("never shows another account's event, and says when an event is not checkpointed yet", async () => {
    const [theirs] = await eventsOf(stranger.accountId);
    const res = await get(`/v1/a2a/audit/events/${theirs!.id}/proof`, owner.apiKey);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
    for (const bad of ["0", "abc", "99999999999", "1e3"]) {
      const r = await get(`/v1/a2a/audit/events/${bad}/proof`, owner.apiKey);
      expect(r.status, bad).toBe(404);
    }
    expect((await lookup(owner.apiKey)).status).toBe(200);
    const latest = (await eventsOf(owner.accountId)).at(-1)!;
    const pending = await get(`/v1/a2a/audit/events/${latest.id}/proof`, owner.apiKey);
    expect(pending.status).toBe(409);
    expect(pending.json.error.code).toBe("not_checkpointed");
    await checkpointNow();
    expect((await get(`/v1/a2a/audit/events/${latest.id}/proof`, owner.apiKey)).status).toBe(200);
    expect((await t.request(`/v1/a2a/audit/events/${latest.id}/proof`)).status).toBe(401);
  });
});

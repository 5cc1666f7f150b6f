import {
  DeployTokenResponseSchema,
  decodeDeployToken,
  encodeDeployToken,
  ScanUploadAcceptanceSchema,
} from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAgentKeys, registrationBody, scanDocument, uploadHeaders } from "../../test-support/agent-client.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

let clock = new Date("2026-11-22T01:00:00.000Z");
let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
const NPI = "1234567893";

beforeAll(async () => {
  t = await startTestServer({ now: () => clock });
  owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 1000 });
  await gradedPractice(t.server.deps, owner.accountId, NPI);
});
afterAll(async () => {
  await t.close();
});

const deploy = async (body?: unknown, key = owner.apiKey, npi = NPI) =>
  t.request(`/v1/a2a/network/deploy/${npi}`, {
    method: "POST",
    headers: { "X-API-Key": key },
    ...(body ? { body } : {}),
  });

describe("scanner enrollment and upload", () => {
  let token: string;
  const keys = newAgentKeys();
  let agentId: string;

  it("issues a deploy token carrying the server URL and CA pin, valid 24 h for one use", async () => {
    const res = await deploy();
    expect(res.status).toBe(201);
    const body = DeployTokenResponseSchema.parse(res.json);
    expect(body).toMatchObject({
      npi: NPI,
      max_uses: 1,
      server_url: t.url,
      ca_sha256: t.server.tls.caSha256,
      expires_at: "2026-11-23T01:00:00.000Z",
    });
    const decoded = decodeDeployToken(body.deploy_token);
    expect(decoded.ok && decoded.token.serverUrl).toBe(t.url);
    expect(decoded.ok && decoded.token.caSha256).toBe(t.server.tls.caSha256);
    expect(body.install.register).toContain("hcs-scanner register");
    const stored = JSON.stringify(await t.server.deps.store.db.selectFrom("deploy_tokens").selectAll().execute());
    expect(stored).not.toContain(body.deploy_token);
    token = body.deploy_token;
  });

  it("registers an agent with the token and a proof of its key", async () => {
    const res = await t.request("/v1/a2a/network/register", { method: "POST", body: registrationBody(token, keys) });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ npi: NPI, practice_name: `Practice ${NPI}`, server_url: t.url });
    agentId = res.json.agent_id;
  });

  it("refuses a used-up token with 409, and a forged proof with 401", async () => {
    const again = await t.request("/v1/a2a/network/register", {
      method: "POST",
      body: registrationBody(token, newAgentKeys()),
    });
    expect([again.status, again.json.error.code]).toEqual([409, "deploy_token_used"]);
    const fresh = (await deploy()).json.deploy_token;
    const forged = { ...registrationBody(fresh, newAgentKeys()), public_key: newAgentKeys().publicKey };
    const res = await t.request("/v1/a2a/network/register", { method: "POST", body: forged });
    expect([res.status, res.json.error.code]).toEqual([401, "invalid_signature"]);
    // The forged attempt did not spend the token.
    expect(
      (await t.request("/v1/a2a/network/register", { method: "POST", body: registrationBody(fresh, newAgentKeys()) }))
        .status,
    ).toBe(201);
  });

  it("refuses expired, revoked, tampered and other servers' tokens with clear codes", async () => {
    const expiring = (await deploy({ expires_in_hours: 1 })).json.deploy_token;
    clock = new Date(clock.getTime() + 2 * 3_600_000);
    const expired = await t.request("/v1/a2a/network/register", {
      method: "POST",
      body: registrationBody(expiring, newAgentKeys()),
    });
    expect([expired.status, expired.json.error.code]).toEqual([401, "deploy_token_expired"]);
    const revocable = (await deploy()).json.deploy_token;
    const { revokeDeployTokens } = await import("../../services/deploy-tokens.js");
    await revokeDeployTokens(t.server.deps, NPI);
    const revoked = await t.request("/v1/a2a/network/register", {
      method: "POST",
      body: registrationBody(revocable, newAgentKeys()),
    });
    expect([revoked.status, revoked.json.error.code]).toEqual([401, "deploy_token_revoked"]);
    const d = decodeDeployToken(revocable);
    const otherServer = encodeDeployToken({
      serverUrl: "https://127.0.0.1:1",
      caSha256: d.ok ? d.token.caSha256 : "",
      secret: d.ok ? d.token.secret : "",
    });
    const wrong = await t.request("/v1/a2a/network/register", {
      method: "POST",
      body: registrationBody(otherServer, newAgentKeys()),
    });
    expect([wrong.status, wrong.json.error.code]).toEqual([401, "invalid_credentials"]);
  });

  it("deploy tokens only for practices the key's account owns", async () => {
    const other = await accountWithKey(t.server.deps, { credits: 10 });
    expect((await deploy(undefined, other.apiKey)).json.error.code).toBe("forbidden");
    expect((await deploy(undefined, owner.apiKey, "1306849450")).json.error.code).toBe("npi_not_found");
    expect((await deploy({ max_uses: 0 })).json.error.code).toBe("invalid_body");
  });

  it("stores a signed upload once, merges it into the unified grade, and replays it harmlessly", async () => {
    const doc = scanDocument(agentId, { unencrypted: true });
    const body = JSON.stringify(doc);
    const res = await t.request("/v1/a2a/network/results", {
      method: "POST",
      headers: uploadHeaders(agentId, doc.scan_id, body, keys.privateKey),
      body,
    });
    expect(res.status, res.text).toBe(201);
    const acceptance = ScanUploadAcceptanceSchema.parse(res.json);
    expect(acceptance.duplicate).toBe(false);
    expect(acceptance.grade?.coverage.internal.categories_with_data.sort()).toEqual(["contingency", "encryption"]);
    expect(acceptance.grade?.categories.encryption).toEqual({ score: 60, weight: 15 });
    expect(acceptance.grade?.caps_applied.map((c) => c.id)).toContain("unencrypted_ephi_device");
    expect(acceptance.grade?.grade).toBe("C");
    const replay = await t.request("/v1/a2a/network/results", {
      method: "POST",
      headers: uploadHeaders(agentId, doc.scan_id, body, keys.privateKey),
      body,
    });
    expect(replay.status).toBe(200);
    expect(replay.json).toEqual({ ...res.json, duplicate: true });
    const stored = await t.server.deps.store.db
      .selectFrom("scan_uploads")
      .select("scan_id")
      .where("scan_id", "=", doc.scan_id)
      .execute();
    expect(stored).toHaveLength(1);
    const grade = await t.request(`/v1/a2a/grade/${NPI}`, { headers: { "X-API-Key": owner.apiKey } });
    expect(grade.json.grade).toBe("C");
  });

  it("refuses a tampered, unsigned or foreign-signed upload, and a different body under a used scan id", async () => {
    const doc = scanDocument(agentId);
    const body = JSON.stringify(doc);
    const headers = uploadHeaders(agentId, doc.scan_id, body, keys.privateKey);
    const tampered = body.replace('"arch":"x64"', '"arch":"arm"');
    expect(
      (await t.request("/v1/a2a/network/results", { method: "POST", headers, body: tampered })).json.error.code,
    ).toBe("invalid_signature");
    const { "X-HCS-Signature": _, ...unsigned } = headers;
    expect(
      (await t.request("/v1/a2a/network/results", { method: "POST", headers: unsigned, body })).json.error.code,
    ).toBe("invalid_signature");
    const stranger = newAgentKeys();
    expect(
      (
        await t.request("/v1/a2a/network/results", {
          method: "POST",
          headers: uploadHeaders(agentId, doc.scan_id, body, stranger.privateKey),
          body,
        })
      ).json.error.code,
    ).toBe("invalid_signature");
    expect(
      (
        await t.request("/v1/a2a/network/results", {
          method: "POST",
          headers: uploadHeaders("agt_AAAAAAAAAAAAAAAA", doc.scan_id, body, keys.privateKey),
          body,
        })
      ).json.error.code,
    ).toBe("invalid_credentials");
    expect((await t.request("/v1/a2a/network/results", { method: "POST", headers, body })).status).toBe(201);
    const changed = JSON.stringify({ ...doc, completed_at: "2026-11-22T01:00:09.000Z" });
    const conflict = await t.request("/v1/a2a/network/results", {
      method: "POST",
      headers: uploadHeaders(agentId, doc.scan_id, changed, keys.privateKey),
      body: changed,
    });
    expect([conflict.status, conflict.json.error.code]).toEqual([409, "idempotency_conflict"]);
  });

  it("refuses schema-invalid documents even when signed", async () => {
    const doc = {
      ...scanDocument(agentId),
      phases: [{ id: "not_a_phase", status: "ok", duration_ms: 1, facts: {}, findings: [] }],
    };
    const body = JSON.stringify(doc);
    const res = await t.request("/v1/a2a/network/results", {
      method: "POST",
      headers: uploadHeaders(agentId, doc.scan_id, body, keys.privateKey),
      body,
    });
    expect([res.status, res.json.error.code]).toEqual([400, "invalid_body"]);
    expect(res.json.error.details.issues[0].path).toContain("phases");
  });

  it("the weakest host decides an internal category", async () => {
    const k2 = newAgentKeys();
    const t2 = (await deploy()).json.deploy_token;
    const reg = await t.request("/v1/a2a/network/register", {
      method: "POST",
      body: registrationBody(t2, k2, "exam-room-2"),
    });
    const a2 = reg.json.agent_id;
    const clean = scanDocument(a2, { hostname: "exam-room-2" });
    const body = JSON.stringify(clean);
    const res = await t.request("/v1/a2a/network/results", {
      method: "POST",
      headers: uploadHeaders(a2, clean.scan_id, body, k2.privateKey),
      body,
    });
    expect(res.json.grade.categories.encryption.score).toBe(100); // frontdesk-01 was rescanned clean above
    const weak = scanDocument(a2, { hostname: "exam-room-2", unencrypted: true });
    const wb = JSON.stringify(weak);
    const res2 = await t.request("/v1/a2a/network/results", {
      method: "POST",
      headers: uploadHeaders(a2, weak.scan_id, wb, k2.privateKey),
      body: wb,
    });
    expect(res2.json.grade.categories.encryption.score).toBe(60);
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import { openMigratedStore } from "../server.js";
import { acceptScanUpload } from "../services/agents.js";
import { issueApiKey } from "../services/api-keys.js";
import type { ServiceDeps } from "../services/deps.js";
import { newAgentKeys, scanDocument, uploadHeaders } from "../test-support/agent-client.js";
import { issueTestDeployToken, registerTestAgent } from "../test-support/direct-enrolment.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";

const dataDir = mkdtempSync(join(tmpdir(), "hcs-cli-enrolment-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const hcs = (...args: string[]) => runHcsServer(dataDir, args);

/** Runs `fn` with services on the CLI's own data directory (what a running server would share with it). */
async function withStore<T>(fn: (deps: ServiceDeps) => Promise<T>): Promise<T> {
  const config = loadConfig({ HCS_DATA_DIR: dataDir }, process.cwd());
  const store = await openMigratedStore(config);
  // A clock that moves a second per reading, so what is made here lists in the order it was made.
  let at = Date.now();
  const now = () => {
    at += 1_000;
    return new Date(at);
  };
  try {
    return await fn({ store, now, secrets: createSecretBox(loadMasterKey(dataDir, null)) });
  } finally {
    await store.close();
  }
}

const NPI = "1234567893";
const agentKeys = newAgentKeys();
let accountId = "";
let agentId = "";
let laptopKeyId = "";

beforeAll(async () => {
  await withStore(async (deps) => {
    const owner = await accountWithKey(deps, { plan: "professional" });
    accountId = owner.accountId;
    await gradedPractice(deps, accountId, NPI);
    const issue = (keyId: string, maxUses = 1) => issueTestDeployToken(deps, { accountId, keyId, npi: NPI, maxUses });
    const used = await issue(owner.keyId);
    agentId = (await registerTestAgent(deps, used.deploy_token, agentKeys)).agent_id;
    await issue(owner.keyId, 3);
    laptopKeyId = (await issueApiKey(deps, { accountId, label: "onboarding laptop" })).keyId;
    await issue(laptopKeyId);
  });
});

describe("hcs-server agents and deploy-tokens", () => {
  it("agents list shows the practice's scanners as JSON or text, without key material", async () => {
    const listed = await hcs("--json", "agents", "list", "--npi", NPI);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ agent_id: agentId, npi: NPI, hostname: "frontdesk-01", revoked_at: null }),
    ]);
    expect(listed.stdout).not.toContain(agentKeys.publicKey);
    const text = await hcs("agents", "list", "--account", accountId);
    expect(text.stdout).toMatch(/hostname\s+frontdesk-01/);
    const bad = await hcs("agents", "list", "--npi", "1234567890");
    expect([bad.code, bad.stderr.trim()]).toEqual([
      1,
      "error (invalid_npi): npi: npi must be 10 digits with a valid check digit",
    ]);
  });

  it("agents revoke stops the agent's uploads, is idempotent, and names unknown ids", async () => {
    const revoked = await hcs("--json", "agents", "revoke", agentId);
    expect(revoked.code, revoked.stderr).toBe(0);
    const first = JSON.parse(revoked.stdout);
    expect(first.revoked_at).toMatch(/^20\d\d-/);
    expect(JSON.parse((await hcs("--json", "agents", "revoke", agentId)).stdout)).toEqual(first);
    const doc = scanDocument(agentId);
    const body = JSON.stringify(doc);
    const signature = uploadHeaders(agentId, doc.scan_id, body, agentKeys.privateKey)["X-HCS-Signature"]!;
    await expect(
      withStore((deps) =>
        acceptScanUpload(deps, { agentId, idempotencyKey: doc.scan_id, signature, raw: Buffer.from(body) }),
      ),
    ).rejects.toMatchObject({ code: "agent_revoked" });
    const unknown = await hcs("agents", "revoke", "agt_AAAAAAAAAAAAAAAA");
    expect([unknown.code, unknown.stderr.trim()]).toEqual([
      1,
      "error (not_found): no scanner agent agt_AAAAAAAAAAAAAAAA",
    ]);
  });

  it("deploy-tokens list shows uses and state, never the token; revoke refuses it and names unknown ids", async () => {
    const listed = await hcs("--json", "deploy-tokens", "list", "--npi", NPI);
    expect(listed.code, listed.stderr).toBe(0);
    const tokens = JSON.parse(listed.stdout) as { token_id: string; state: string; uses: number; max_uses: number }[];
    expect(tokens.map((t) => [t.state, t.uses, t.max_uses])).toEqual([
      ["used", 1, 1],
      ["active", 0, 3],
      ["active", 0, 1],
    ]);
    expect(listed.stdout).not.toMatch(/hcsdt1\.|token_hash/);
    const revoked = await hcs("deploy-tokens", "revoke", tokens[1]!.token_id);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/state\s+revoked/);
    const unknown = await hcs("deploy-tokens", "revoke", "dpt_AAAAAAAAAAAAAAAA");
    expect([unknown.code, unknown.stderr.trim()]).toEqual([
      1,
      "error (not_found): no deploy token dpt_AAAAAAAAAAAAAAAA",
    ]);
  });

  it("keys revoke also revokes the deploy tokens that key created", async () => {
    const revoked = await hcs("--json", "keys", "revoke", laptopKeyId);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ key_id: laptopKeyId, deploy_tokens_revoked: 1 });
    const tokens = JSON.parse((await hcs("--json", "deploy-tokens", "list", "--account", accountId)).stdout);
    expect(tokens.map((t: { state: string }) => t.state)).toEqual(["used", "revoked", "revoked"]);
  });

  it("--help lists both command groups, each subcommand with an example", async () => {
    const help = await hcs("--help");
    expect(help.stdout).toContain("agents");
    expect(help.stdout).toContain("deploy-tokens");
    for (const args of [
      ["agents", "list"],
      ["agents", "revoke"],
      ["deploy-tokens", "list"],
      ["deploy-tokens", "revoke"],
    ]) {
      const sub = await hcs(...args, "--help");
      expect(sub.stdout, args.join(" ")).toContain("Example");
    }
  });
});

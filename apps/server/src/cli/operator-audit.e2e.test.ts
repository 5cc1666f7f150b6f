import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequenceAuditLog } from "../audit/sequencer.js";
import { loadConfig } from "../config.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import { openMigratedStore } from "../server.js";
import { auditLeafHash, auditRecordOf } from "../services/audit.js";
import type { ServiceDeps } from "../services/deps.js";
import type { Engine } from "../store/migrations/engine.js";
import { issueTestDeployToken, registerTestAgent } from "../test-support/direct-enrolment.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";
import { createTestSchema, shouldRunPostgres, urlWithSchema } from "../test-support/postgres.js";

const runPg = await shouldRunPostgres();
const NPI = "1234567893";

/** The real `hcs-server` on one database: its operator commands each leave one event, and nothing else does. */
function operatorAuditSuite(
  engine: Engine,
  database: () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>,
) {
  describe(`operator commands are audited (${engine})`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), "hcs-cli-audit-"));
    let env: Record<string, string> = {};
    let drop: () => Promise<void> = async () => undefined;
    beforeAll(async () => {
      ({ env, drop } = await database());
    });
    afterAll(async () => {
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const hcs = async (...args: string[]) => {
      const r = await runHcsServer(dataDir, args, env);
      return { ...r, json: r.code === 0 && args[0] === "--json" ? JSON.parse(r.stdout) : null };
    };
    /** Services on the CLI's own database, as a server sharing it would have. */
    async function withStore<T>(fn: (deps: ServiceDeps) => Promise<T>): Promise<T> {
      const store = await openMigratedStore(loadConfig({ HCS_DATA_DIR: dataDir, ...env }, process.cwd()));
      try {
        return await fn({ store, now: () => new Date(), secrets: createSecretBox(loadMasterKey(dataDir, null)) });
      } finally {
        await store.close();
      }
    }
    const eventsAfter = (id: number) =>
      withStore((deps) =>
        sequenceAuditLog(deps.store).then(() =>
          deps.store.db.selectFrom("audit_trail").selectAll().where("id", ">", id).orderBy("id").execute(),
        ),
      );
    const lastEventId = async () => Math.max(0, ...(await eventsAfter(0)).map((e) => Number(e.id)));

    let accountId = "";
    let keyId = "";

    it("each command that changes accounts, credits or keys (or shows a secret) writes one cli event, in its transaction", async () => {
      const created = await hcs(
        "--json",
        "accounts",
        "create",
        "--name",
        "Audited",
        "--plan",
        "professional",
        "--credits",
        "500",
      );
      expect(created.code, created.stderr).toBe(0);
      accountId = created.json.id;
      expect((await hcs("--json", "accounts", "webhook-secret", accountId)).code).toBe(0);
      expect((await hcs("--json", "accounts", "webhook-secret", accountId, "--rotate")).code).toBe(0);
      const key = await hcs("--json", "keys", "create", "--account", accountId);
      keyId = key.json.key_id;
      const practice = await hcs(
        "practices",
        "add",
        "--npi",
        NPI,
        "--name",
        "Audited Clinic",
        "--domain",
        "audited.example",
        "--account",
        accountId,
      );
      expect(practice.code, practice.stderr).toBe(0);
      // A scanner enrolled with one token, and a second token still active: what the server would have made.
      const { agentId, tokenId } = await withStore(async (deps) => {
        const issue = (maxUses: number) => issueTestDeployToken(deps, { accountId, keyId, npi: NPI, maxUses });
        const used = await issue(1);
        const agent = await registerTestAgent(deps, used.deploy_token);
        await issue(3);
        const active = await deps.store.db
          .selectFrom("deploy_tokens")
          .select("id")
          .where("max_uses", "=", 3)
          .executeTakeFirstOrThrow();
        return { agentId: agent.agent_id, tokenId: active.id };
      });
      expect((await hcs("agents", "revoke", agentId)).code).toBe(0);
      expect((await hcs("deploy-tokens", "revoke", tokenId)).code).toBe(0);
      expect((await hcs("keys", "revoke", keyId)).code).toBe(0);

      const events = await eventsAfter(0);
      expect(events.map((e) => [e.action, e.resource, e.actor_account_id])).toEqual([
        ["operator.accounts.create", `account:${accountId}`, accountId],
        ["operator.accounts.webhook-secret.show", `account:${accountId}`, accountId],
        ["operator.accounts.webhook-secret.rotate", `account:${accountId}`, accountId],
        ["operator.keys.create", `key:${keyId}`, accountId],
        ["operator.practices.add", `practice:${NPI}`, accountId],
        ["operator.agents.revoke", `agent:${agentId}`, accountId],
        ["operator.deploy-tokens.revoke", `deploy_token:${tokenId}`, accountId],
        ["operator.keys.revoke", `key:${keyId}`, accountId],
      ]);
      for (const e of events) {
        expect(e).toMatchObject({
          transport: "cli",
          actor_key_id: null,
          actor_operator: userInfo().username,
          outcome: "success",
          status: 200,
          code: null,
          // No client address or duration: no context row.
          client_ip: null,
          duration_ms: null,
        });
        const record = auditRecordOf({ ...e, status: Number(e.status) }, e.salt);
        expect(record.actor).toEqual({ account_id: accountId, key_id: null, operator: userInfo().username });
        expect(e.leaf_hash?.toString("hex")).toBe(auditLeafHash(record));
      }
      expect(new Set(events.map((e) => e.request_id)).size).toBe(events.length);
      // Never a secret: the webhook secret and the API key printed by the commands are not in the log.
      const printed = [created.json.webhook_secret, key.json.api_key];
      for (const secret of printed) expect(JSON.stringify(events)).not.toContain(secret);
    }, 180_000); // about fifteen CLI processes: under a loaded two-core machine they took over 30 s

    it("a failed command leaves no event (its transaction rolled back), and read-only commands none", async () => {
      const before = await lastEventId();
      const unknown = await hcs("keys", "revoke", "key_AAAAAAAAAAAA");
      expect([unknown.code, unknown.stderr.trim()]).toEqual([1, "error (not_found): no API key key_AAAAAAAAAAAA"]);
      expect((await hcs("accounts", "webhook-secret", "acct_missing", "--rotate")).code).toBe(1);
      expect((await hcs("accounts", "list")).code).toBe(0);
      expect(await eventsAfter(before)).toEqual([]);
    }, 60_000);
  });
}

operatorAuditSuite("sqlite", async () => ({ env: {}, drop: async () => undefined }));
describe.skipIf(!runPg)("postgres", () => {
  operatorAuditSuite("postgres", async () => {
    const schema = await createTestSchema();
    return { env: { DATABASE_URL: urlWithSchema(schema) }, drop: schema.drop };
  });
});

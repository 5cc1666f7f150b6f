import { userInfo } from "node:os";
import { AccountOverviewSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequenceAuditLog } from "../audit/sequencer.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";
import { shouldRunPostgres } from "../test-support/postgres.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

/**
 * `hcs-server accounts create|set-plan` and `credits grant` as the operator runs them — real processes on the
 * database a running server serves — and what the server's customers then see over HTTPS.
 */
function billingCommandsSuite(engine: "sqlite" | "postgres") {
  describe(`plan and credit commands (${engine})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ engine });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    const hcs = async (...args: string[]) => {
      const r = await runHcsServer(t.dataDir, args, t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {});
      return { ...r, json: r.code === 0 && args[0] === "--json" ? JSON.parse(r.stdout) : null };
    };
    const events = async (accountId: string) => {
      await sequenceAuditLog(t.server.deps.store);
      return t.server.deps.store.db
        .selectFrom("audit_trail")
        .selectAll()
        .where("actor_account_id", "=", accountId)
        .where("transport", "=", "cli")
        .orderBy("id")
        .execute();
    };
    const account = async (key: string) => {
      const res = await t.request("/v1/a2a/account", { headers: { "X-API-Key": key } });
      expect(res.status, res.text).toBe(200);
      return AccountOverviewSchema.parse(res.json);
    };

    it("a free account the operator creates gets the free tier's 500 credits; grants and plan changes are audited and seen at once", async () => {
      const created = await hcs(
        "--json",
        "accounts",
        "create",
        "--name",
        "Riverside Family Medicine",
        "--plan",
        "free",
      );
      expect(created.code, created.stderr).toBe(0);
      expect(created.json).toMatchObject({ plan: "free", tier: "standard", credits: 500 });
      const id: string = created.json.id;
      const key = await hcs("--json", "keys", "create", "--account", id);
      const apiKey: string = key.json.api_key;
      expect((await account(apiKey)).balance).toBe(500);

      const granted = await hcs(
        "--json",
        "credits",
        "grant",
        "--account",
        id,
        "--credits",
        "1000",
        "--reference",
        "INV-2026-0042",
      );
      expect(granted.code, granted.stderr).toBe(0);
      expect(granted.json).toMatchObject({ account_id: id, credits: 1000, balance: 1500, reference: "INV-2026-0042" });
      const afterGrant = await account(apiKey);
      expect(afterGrant.balance).toBe(1500);
      expect(afterGrant.current_period).toMatchObject({ plan: "free", credits_added: 1500, closing_balance: 1500 });

      // The same payment again is refused, and leaves nothing behind.
      const twice = await hcs("credits", "grant", "--account", id, "--credits", "1000", "--reference", "INV-2026-0042");
      expect([twice.code, twice.stderr.trim()]).toEqual([
        1,
        "error (conflict): credits with reference INV-2026-0042 were already added to this account",
      ]);
      // Usage errors, before anything is opened.
      expect((await hcs("credits", "grant", "--account", id, "--credits", "0")).code).toBe(2);
      expect((await hcs("accounts", "set-plan", id, "--plan", "gold")).code).toBe(2);
      expect((await hcs("accounts", "set-plan", "acct_missing", "--plan", "professional")).code).toBe(1);

      // Group A needs a paid plan, and the refusal says where to ask; after set-plan the same key is let in.
      const refused = await t.request("/v1/practice", { headers: { Authorization: `Bearer ${apiKey}` } });
      expect(refused.json.error.code).toBe("plan_required");
      const upgraded = await hcs("--json", "accounts", "set-plan", id, "--plan", "professional", "--tier", "bulk");
      expect(upgraded.code, upgraded.stderr).toBe(0);
      expect(upgraded.json).toMatchObject({
        account_id: id,
        plan: "professional",
        tier: "bulk",
        previous_plan: "free",
        previous_tier: "standard",
        new_period: true,
      });
      // Another process changed the plan: the server's key cache hears of it (SQLite's epoch, PostgreSQL's notify).
      await expect
        .poll(
          async () =>
            (await t.request("/v1/practice", { headers: { Authorization: `Bearer ${apiKey}` } })).json.error?.code,
          {
            timeout: 5000,
          },
        )
        .not.toBe("plan_required");
      const after = await account(apiKey);
      expect(after).toMatchObject({ plan: "professional", tier: "bulk", balance: 1500 });
      expect(after.rate_limits.group_b.windows[0]!.limit).toBe(600);
      expect(after.rate_limits.group_a?.windows.map((w) => w.limit)).toEqual([100, 1000]);
      expect(after.current_period).toMatchObject({ plan: "professional", annual_minimum: 5000, opening_balance: 1500 });
      expect(after.past_periods).toEqual([
        expect.objectContaining({
          plan: "free",
          state: "closed",
          credits_added: 1500,
          closing_balance: 1500,
          end: after.current_period.start,
        }),
      ]);

      const audited = await events(id);
      expect(audited.map((e) => [e.action, e.resource])).toEqual([
        ["operator.accounts.create", `account:${id}`],
        ["operator.keys.create", `key:${key.json.key_id}`],
        ["operator.credits.grant", `account:${id}`],
        ["operator.accounts.set-plan", `account:${id}`],
      ]);
      for (const e of audited)
        expect(e).toMatchObject({ actor_key_id: null, actor_operator: userInfo().username, outcome: "success" });

      const ledger = await hcs("--json", "credits", "ledger", "--account", id);
      expect(ledger.json.map((r: { operation: string; delta: number }) => [r.operation, r.delta])).toEqual([
        ["grant", 1000],
        ["opening_balance", 500],
      ]);
    }, 120_000);

    it("paid plans start with what was bought, --credits 0 included", async () => {
      const paid = await hcs("--json", "accounts", "create", "--name", "Paid", "--plan", "enterprise");
      expect(paid.json).toMatchObject({ plan: "enterprise", credits: 0 });
      const none = await hcs("--json", "accounts", "create", "--name", "Trial", "--plan", "free", "--credits", "0");
      expect(none.json).toMatchObject({ plan: "free", credits: 0 });
    }, 60_000);
  });
}

billingCommandsSuite("sqlite");
describe.skipIf(!(await shouldRunPostgres()))("postgres", () => billingCommandsSuite("postgres"));

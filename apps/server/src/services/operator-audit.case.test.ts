import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequenceAuditLog } from "../audit/sequencer.js";
import { createSecretBox } from "../secrets/master-key.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Store } from "../store/store.js";
import { forEachEngine, type OpenTestStore } from "../test-support/store-engines.js";
import { createAccount } from "./accounts.js";
import { auditLeafHash, auditRecordOf } from "./audit.js";
import { bootstrapOperatorAccount } from "./bootstrap.js";
import type { ServiceDeps } from "./deps.js";
import { onAccount, operatorAudit } from "./operator-audit.js";

/** Operator events commit with their change, or neither does; the bootstrap account is audited. Both engines. */
function operatorAuditSuite(engine: Engine, open: OpenTestStore) {
  describe(`operator audit events on ${engine}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let deps: ServiceDeps;
    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.migrate();
      deps = { store, now: () => new Date(), secrets: createSecretBox(Buffer.alloc(32, 9)) };
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    const run = (requestId: string) => ({ operator: "alice", requestId, now: deps.now });
    // Sequenced first: the sequencer hashes each record into its leaf.
    const events = async (requestId: string) => {
      await sequenceAuditLog(store);
      return store.db
        .selectFrom("audit_entries")
        .selectAll()
        .where("request_id", "=", requestId)
        .orderBy("id")
        .execute();
    };

    it("an event that cannot be written undoes the change: the account and its credits exist only audited", async () => {
      const write = operatorAudit(run("req-undone"), "operator.accounts.create", onAccount);
      let made = "";
      await expect(
        createAccount(deps, { name: "Never", plan: "free", tier: "standard", credits: 50 }, async (trx, id) => {
          made = id;
          await write(trx, id);
          throw new Error("the audit store refused");
        }),
      ).rejects.toThrow("the audit store refused");
      expect(await store.db.selectFrom("accounts").select("id").where("id", "=", made).execute()).toEqual([]);
      expect(await store.db.selectFrom("credit_ledger").select("id").where("account_id", "=", made).execute()).toEqual(
        [],
      );
      expect(await events("req-undone")).toEqual([]);

      const { account } = await createAccount(
        deps,
        { name: "Kept", plan: "free", tier: "standard", credits: 50 },
        operatorAudit(run("req-kept"), "operator.accounts.create", onAccount),
      );
      const [e] = await events("req-kept");
      expect(e).toMatchObject({
        action: "operator.accounts.create",
        actor_account_id: account.id,
        actor_operator: "alice",
      });
      expect(e!.leaf_hash?.toString("hex")).toBe(
        auditLeafHash(auditRecordOf({ ...e!, status: Number(e!.status) }, e!.salt)),
      );
    });

    it("the bootstrap account and key are audited as the operator's account and key creation, under one request id", async () => {
      const made = await bootstrapOperatorAccount(deps, "hcs");
      expect(made).not.toBeNull();
      const rows = await store.db
        .selectFrom("audit_events")
        .selectAll()
        .where("actor_account_id", "=", made!.accountId)
        .orderBy("id")
        .execute();
      expect(rows.map((r) => [r.action, r.resource, r.transport, r.actor_operator])).toEqual([
        ["operator.accounts.create", `account:${made!.accountId}`, "cli", "hcs"],
        ["operator.keys.create", `key:${made!.keyId}`, "cli", "hcs"],
      ]);
      expect(rows[0]!.request_id).toBe(rows[1]!.request_id);
      // Started by code (no OS user given): still audited, the record without an operator.
      await store.db.deleteFrom("server_meta").where("key", "=", "bootstrap").execute();
      const again = await bootstrapOperatorAccount(deps);
      const [e] = await store.db
        .selectFrom("audit_events")
        .selectAll()
        .where("resource", "=", `account:${again!.accountId}`)
        .execute();
      expect(e!.actor_operator).toBeNull();
      expect(auditRecordOf({ ...e!, status: Number(e!.status) }, e!.salt).actor).toEqual({
        account_id: again!.accountId,
        key_id: null,
      });
    });
  });
}

forEachEngine(operatorAuditSuite);

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimJobs, markAttemptFailed } from "../jobs/queue.js";
import { createSecretBox } from "../secrets/master-key.js";
import type { ServiceDeps } from "../services/deps.js";
import { dispatchScan } from "../services/jobs.js";
import { openStore, type Store } from "../store/store.js";
import { accountWithKey, gradedPractice } from "./fixtures.js";
import { ledgerAgreement } from "./ledger-agreement.js";
import { createTestSchema, shouldRunPostgres, TEST_PG_URL } from "./postgres.js";

const runPg = await shouldRunPostgres();
const NPI = "1234567893";

/**
 * The credit/ledger "mismatch" that e2e/postgres-restarts.e2e.test.ts reported once under load (balance 150 above the
 * ledger): the database was consistent — every charge and refund writes its balance change and its ledger row in one
 * transaction — but the test read the ledger and then, two statements later, the balance, while the worker process
 * was failing the test's scans (their practice is unreachable) and refunding them. A refund committed between the two
 * reads is in the balance and not in the summed ledger. Here that refund is injected at exactly that point: by a
 * second store (the worker process), through the worker's own path (claim, attempt failed for good, refund).
 */
describe.skipIf(!runPg)("the balance and the ledger, read while a worker refunds a scan", () => {
  let schema: { schema: string; drop(): Promise<void> };
  let server: Store;
  let worker: Store;
  let deps: ServiceDeps;
  let accountId = "";

  beforeAll(async () => {
    schema = await createTestSchema();
    server = openStore({ engine: "postgres", url: TEST_PG_URL, schema: schema.schema });
    worker = openStore({ engine: "postgres", url: TEST_PG_URL, schema: schema.schema });
    await server.migrate();
    deps = { store: server, now: () => new Date(), secrets: createSecretBox(randomBytes(32)) };
    accountId = (await accountWithKey(deps, { credits: 1_000, tier: "bulk", plan: "professional" })).accountId;
    await gradedPractice(deps, accountId, NPI);
  });
  afterAll(async () => {
    await server?.close();
    await worker?.close();
    await schema?.drop();
  });

  /** Dispatches a scan (150 credits) and answers how the worker fails it for good, refunding it. */
  async function scanToRefund(): Promise<() => Promise<void>> {
    await dispatchScan(deps, { accountId, npi: NPI, scanType: "full", callbackUrl: null });
    return async () => {
      const nowMs = Date.now();
      const [job] = await claimJobs(worker.db, "postgres", { workerId: "wrk_test", limit: 1, leaseMs: 60_000, nowMs });
      const state = await markAttemptFailed(worker.db, job!, {
        workerId: "wrk_test",
        code: "target_unreachable",
        message: "no check could reach the practice",
        nowMs,
        retryable: false,
      });
      expect(state).toBe("failed");
    };
  }

  it("two reads on the pool, a refund committed between them: the balance is one scan above the ledger", async () => {
    const refund = await scanToRefund();
    // What the e2e test did: the ledger, another query, then the balance.
    const ledger = await server.db
      .selectFrom("credit_ledger")
      .select("delta")
      .where("account_id", "=", accountId)
      .execute();
    await refund();
    const balance = await server.db
      .selectFrom("accounts")
      .select("credits")
      .where("id", "=", accountId)
      .executeTakeFirstOrThrow();
    expect(balance.credits - ledger.reduce((s, l) => s + l.delta, 0)).toBe(150);
    // Yet the database agrees with itself: the refund's balance change and ledger row committed together.
    const [now] = await ledgerAgreement(server, [accountId]);
    expect(now!.balance).toBe(now!.ledger);
  });

  it("one snapshot, the same refund committed between its reads: balance and ledger agree, as of before the refund", async () => {
    const refund = await scanToRefund();
    const [before] = await ledgerAgreement(server, [accountId]);
    const [during] = await ledgerAgreement(server, [accountId], { afterLedgerRead: refund });
    expect(during!.balance).toBe(during!.ledger);
    expect(during).toMatchObject({ balance: before!.balance, ledger: before!.ledger });
    const [after] = await ledgerAgreement(server, [accountId]);
    expect(after).toMatchObject({ balance: before!.balance + 150, ledger: before!.ledger + 150 });
    expect(after!.rows.filter((r) => r.operation === "refund")).toHaveLength(2);
  });
});

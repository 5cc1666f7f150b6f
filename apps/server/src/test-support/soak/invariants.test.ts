import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../secrets/master-key.js";
import { recordAuditEvent } from "../../services/audit.js";
import { openStore, type Store } from "../../store/store.js";
import { accountWithKey } from "../fixtures.js";
import { createTestSchema, shouldRunPostgres, TEST_PG_URL } from "../postgres.js";
import type { Slot } from "./cluster.js";
import { balancesEqualLedgers, chargesAudited, memoryFlat, noCrashes, noServerErrors } from "./invariants.js";
import { Traffic } from "./traffic.js";

const runPg = await shouldRunPostgres();

// The soak's checks catch what they are for: each is shown a store (or a run) where its invariant is broken.

describe.skipIf(!runPg)("the soak's checks of the store", () => {
  let schema: { schema: string; drop(): Promise<void> };
  let store: Store;
  let accountId = "";
  beforeAll(async () => {
    schema = await createTestSchema();
    store = openStore({ engine: "postgres", url: TEST_PG_URL, schema: schema.schema });
    await store.migrate();
    const deps = { store, now: () => new Date(), secrets: createSecretBox(randomBytes(32)) };
    accountId = (await accountWithKey(deps, { credits: 1_000 })).accountId;
  });
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  it("fail a balance changed without its ledger row, and a charge without its audit event", async () => {
    expect((await balancesEqualLedgers(store, [accountId])).ok).toBe(true);
    expect((await chargesAudited(store, [accountId])).ok).toBe(true);
    await store.db
      .insertInto("credit_ledger")
      .values({
        account_id: accountId,
        delta: -25,
        balance_after: 975,
        operation: "grade",
        reference: "req-unaudited",
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await balancesEqualLedgers(store, [accountId])).ok).toBe(false);
    await store.db.updateTable("accounts").set({ credits: 975 }).where("id", "=", accountId).execute();
    expect((await balancesEqualLedgers(store, [accountId])).ok).toBe(true);
    const unaudited = await chargesAudited(store, [accountId]);
    expect(unaudited).toMatchObject({ ok: false });
    expect(unaudited.detail).toMatch(/req-unaudited has no audit event/);
    await store.db.transaction().execute((trx) =>
      recordAuditEvent(trx, {
        at: new Date().toISOString(),
        request_id: "req-unaudited",
        actor_key_id: null,
        actor_account_id: accountId,
        actor_operator: null,
        action: "hipaa.grade",
        transport: "worker",
        resource: null,
        outcome: "success",
        status: 200,
        code: null,
      }),
    );
    expect((await chargesAudited(store, [accountId])).ok).toBe(true);
  });
});

describe("the soak's checks of a run", () => {
  const life = (pid: number, mibs: number[], end: string | null = null) => ({
    pid,
    startedAt: 0,
    endedAt: 100_000,
    end: end as never,
    rss: mibs.map((mib, i) => ({ t: i * 1000, mib })),
  });
  const slot = (lives: ReturnType<typeof life>[]): Slot => ({
    name: "serve-0",
    role: "serve",
    dataDir: "/nonexistent",
    url: null,
    lives,
    tail: "",
    errors: [],
  });

  it("fail memory that keeps growing, and pass memory that levels off", () => {
    const flat = [150, 160, 170, 172, 171, 173, 172, 171, 174];
    const growing = [150, 160, 170, 180, 190, 200, 240, 260, 280];
    expect(memoryFlat([slot([life(1, flat)])], 100_000).ok).toBe(true);
    expect(memoryFlat([slot([life(1, growing)])], 100_000)).toMatchObject({ ok: false });
    // A life too short to judge is not judged; with nothing to judge the check fails rather than pass blindly.
    expect(memoryFlat([slot([life(1, growing)])], 1_000_000).ok).toBe(false);
  });

  it("fail a process that died by itself, and any 5xx but 503", () => {
    expect(noCrashes([slot([life(1, [1], "killed"), life(2, [1], "stopped")])]).ok).toBe(true);
    expect(noCrashes([slot([life(1, [1], "exited 1")])]).ok).toBe(false);
    const traffic = new Traffic({ accounts: [], urls: () => [], ca: "", receiver: null as never });
    traffic.tallies.get("lookup")!.record(503, 1);
    expect(noServerErrors(traffic).ok).toBe(true);
    traffic.tallies.get("batch")!.record(500, 1, '{"error":{"code":"internal"}}');
    expect(noServerErrors(traffic)).toMatchObject({ ok: false });
  });
});

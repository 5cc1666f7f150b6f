import pino from "pino";
import { Registry } from "prom-client";
import { createPublicClient, getAbiItem, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../store/store.js";
import { ANVIL_KEYS, type Anvil, startAnvil } from "../../test-support/anvil.js";
import { appendAuditRun } from "../../test-support/audit-events.js";
import { sharedTestLogKey, testLogKeys } from "../../test-support/audit-log-keys.js";
import { forEachEngine, type OpenedStore } from "../../test-support/store-engines.js";
import { startTcpProxy, type TcpProxy } from "../../test-support/tcp-proxy.js";
import { createCheckpoint } from "../checkpoints.js";
import { sequenceAuditLog } from "../sequencer.js";
import { AnchorChain } from "./anchor-chain.js";
import { checkAnchorOnChain } from "./anchor-check.js";
import { ANCHOR_ABI } from "./anchor-contract.js";
import { deployAnchorContract } from "./anchor-deploy.js";
import { AuditAnchorLoop } from "./anchor-loop.js";
import { registerAnchorMetrics } from "./anchor-metrics.js";
import { findAnchor, latestFinalizedAnchor } from "./anchor-records.js";
import { anchorDay, claimDueAnchor, enqueueAnchors } from "./anchor-store.js";

const POLL_MS = 1_000;
const REPLACE_AFTER_MS = 30 * POLL_MS;
const operator = privateKeyToAccount(ANVIL_KEYS[0]);
const silent = pino({ level: "silent" });
const logKeyDir = sharedTestLogKey().dataDir;

let anvil: Anvil;
let contract: `0x${string}`;
beforeAll(async () => {
  anvil = await startAnvil();
  contract = (await deployAnchorContract(anvil, operator)).address;
});
afterAll(async () => {
  await anvil?.stop();
});

/** A clock the test moves: anchors come due when the test says so, whatever the real time. */
function testClock() {
  let t = Date.parse("2026-11-23T10:00:00.000Z");
  return {
    now: () => new Date(t),
    advance: (ms: number) => {
      t += ms;
    },
  };
}

async function checkpointOf(store: Store, from: number, count: number) {
  await appendAuditRun(store, from, count);
  while ((await sequenceAuditLog(store)).sequenced > 0);
  const keys = await testLogKeys(store, { dataDir: logKeyDir });
  return (await createCheckpoint(store, keys, new Date("2026-11-23T09:00:00.000Z")))!;
}

function loopOn(store: Store, clock: { now: () => Date }, chain: AnchorChain, registry = new Registry()) {
  const loop = new AuditAnchorLoop(
    { store, logger: silent, now: clock.now, metrics: registerAnchorMetrics(registry) },
    chain,
    { pollMs: POLL_MS, backoffCapMs: 8 * POLL_MS, replaceAfterMs: REPLACE_AFTER_MS },
  );
  return { loop, registry };
}

// "pending": a transaction the node has accepted counts at once, mined or not yet (anvil mines each one, but a
// count of the latest block can read just before it does).
const sentTransactions = async () =>
  createPublicClient({ transport: http(anvil.rpcUrl) }).getTransactionCount({
    address: operator.address,
    blockTag: "pending",
  });

async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}) {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const value = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return value?.value ?? 0;
}

describe("the anchor contract's owner", () => {
  it("is the only account that can anchor: another key is refused before anything is sent, and by the contract", async () => {
    const someoneElse = privateKeyToAccount(ANVIL_KEYS[1]);
    const target = { rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, contract };
    await expect(new AnchorChain(target, someoneElse).assertContract()).rejects.toMatchObject({
      code: "anchor_contract_mismatch",
      message: `the anchor contract ${contract} is owned by ${operator.address}, not by this key's account ${someoneElse.address}`,
    });
    // Even without that check, the contract refuses (seen in simulation: no transaction, no fee).
    await expect(
      new AnchorChain(target, someoneElse).signAnchor(`0x${"11".repeat(32)}`, 1n, 20261123n),
    ).rejects.toMatchObject({ code: "anchor_refused", message: expect.stringContaining("NotOwner") });
    const nowhere = { ...target, contract: "0x000000000000000000000000000000000000dEaD" as const };
    await expect(new AnchorChain(nowhere, operator).assertContract()).rejects.toMatchObject({
      code: "anchor_contract_mismatch",
    });
  });
});

forEachEngine((engine, open) => {
  describe(`anchoring audit checkpoints on ${engine}, against a local EVM node`, () => {
    const opened: OpenedStore[] = [];
    const others: Store[] = [];
    afterAll(async () => {
      for (const s of others) await s.close();
      for (const o of opened) {
        await o.store.close();
        await o.cleanup();
      }
    });
    async function freshStore() {
      const o = await open();
      opened.push(o);
      await o.store.migrate();
      return o;
    }
    const chainOf = (o: { chainId?: number; rpcUrl?: string; timeoutMs?: number } = {}) =>
      new AnchorChain(
        {
          rpcUrl: o.rpcUrl ?? anvil.rpcUrl,
          chainId: o.chainId ?? anvil.chainId,
          contract,
          ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
        },
        operator,
      );

    it("writes root, size and day in an Anchored event, and counts the checkpoint anchored only once its block is finalized", async () => {
      const { store } = await freshStore();
      const clock = testClock();
      const { loop, registry } = loopOn(store, clock, chainOf());
      const checkpoint = await checkpointOf(store, 0, 5);
      expect(await findAnchor(store, 5)).toBeNull();
      const before = await sentTransactions();

      await loop.tick();
      const sent = (await findAnchor(store, 5))!;
      expect(sent).toMatchObject({
        state: "sent",
        chainId: anvil.chainId,
        contract,
        day: anchorDay(checkpoint.createdAt),
      });
      expect(sent.txHash).toMatch(/^0x[0-9a-f]{64}$/);

      // The event, found the way an auditor would: by the indexed root, from the contract's logs.
      const client = createPublicClient({ transport: http(anvil.rpcUrl) });
      const logs = await client.getLogs({
        address: contract,
        event: getAbiItem({ abi: ANCHOR_ABI, name: "Anchored" }),
        args: { root: `0x${checkpoint.rootHash}` },
        fromBlock: 0n,
      });
      expect(logs).toHaveLength(1);
      expect(logs[0]!.args).toEqual({ root: `0x${checkpoint.rootHash}`, treeSize: 5n, day: 20261123n });
      expect(logs[0]!.transactionHash).toBe(sent.txHash);

      // Mined, but anvil's finalized block trails the latest by 2: not anchored yet, however often we look.
      clock.advance(POLL_MS);
      await loop.tick();
      const mined = (await findAnchor(store, 5))!;
      expect(mined).toMatchObject({ state: "sent", blockNumber: Number(logs[0]!.blockNumber) });
      await anvil.mine(1);
      clock.advance(POLL_MS);
      await loop.tick();
      expect((await findAnchor(store, 5))!.state).toBe("sent");
      expect(await latestFinalizedAnchor(store)).toBeNull();
      expect(loop.status()).toMatchObject({ status: "ok", pending: 1, last_finalized_size: null });

      await anvil.mine(1);
      clock.advance(POLL_MS);
      await loop.tick();
      const anchored = (await findAnchor(store, 5))!;
      expect(anchored).toMatchObject({ state: "finalized", txHash: sent.txHash, blockNumber: mined.blockNumber });
      expect(anchored.blockHash).toBe(logs[0]!.blockHash);
      expect(await latestFinalizedAnchor(store)).toEqual(anchored);
      expect(await sentTransactions()).toBe(before + 1);
      expect(loop.status()).toMatchObject({ status: "ok", pending: 0, last_finalized_size: 5 });
      expect(await metricValue(registry, "hcs_audit_anchor_last_finalized_size")).toBe(5);
      expect(await metricValue(registry, "hcs_audit_anchor_pending")).toBe(0);

      // What `audit verify --rpc-url` does with it.
      const check = (o: { rootHash?: string; size?: number; chainId?: number } = {}) =>
        checkAnchorOnChain({
          rpcUrl: anvil.rpcUrl,
          anchor: { ...anchored, txHash: anchored.txHash!, chainId: o.chainId ?? anchored.chainId },
          rootHash: o.rootHash ?? checkpoint.rootHash,
          size: o.size ?? 5,
        });
      expect(await check()).toEqual({
        ok: true,
        blockNumber: anchored.blockNumber,
        blockHash: anchored.blockHash,
        day: 20261123,
        sender: operator.address,
      });
      expect(await check({ rootHash: "00".repeat(32) })).toMatchObject({ ok: false, reason: "root_mismatch" });
      expect(await check({ size: 6 })).toMatchObject({ ok: false, reason: "size_mismatch" });
      expect(await check({ chainId: 8453 })).toMatchObject({ ok: false, reason: "wrong_chain" });
    });

    it("does not count an anchor whose block a reorganization dropped, even at a finalized height, and sends it again", async () => {
      const { store } = await freshStore();
      const clock = testClock();
      const { loop, registry } = loopOn(store, clock, chainOf());
      const checkpoint = await checkpointOf(store, 0, 3);
      await loop.tick();
      const first = (await findAnchor(store, 3))!;
      const before = await sentTransactions();

      // The anchor's block and the two after it are replaced by three empty blocks: the height is the same, and
      // the `finalized` tag now points at the height where the anchor was — but it is in no block any more.
      await anvil.mine(2);
      await anvil.rpc("anvil_reorg", [3, []]);
      clock.advance(POLL_MS);
      await loop.tick();
      const again = (await findAnchor(store, 3))!;
      expect(again.state).toBe("sent");
      expect(again.txHash).not.toBe(first.txHash);
      expect(await sentTransactions()).toBe(before); // the dropped one's nonce was reused: it is gone for good
      expect(await metricValue(registry, "hcs_audit_anchor_transactions_total", { kind: "resend" })).toBe(1);

      await anvil.mine(2);
      clock.advance(POLL_MS);
      await loop.tick();
      const anchored = (await findAnchor(store, 3))!;
      expect(anchored).toMatchObject({ state: "finalized", txHash: again.txHash });
      const proofOfOld = await checkAnchorOnChain({
        rpcUrl: anvil.rpcUrl,
        anchor: { chainId: anvil.chainId, contract, txHash: first.txHash! },
        rootHash: checkpoint.rootHash,
        size: 3,
      });
      expect(proofOfOld).toMatchObject({ ok: false, reason: "tx_not_found" });
      expect(
        await checkAnchorOnChain({
          rpcUrl: anvil.rpcUrl,
          anchor: { ...anchored, txHash: anchored.txHash! },
          rootHash: checkpoint.rootHash,
          size: 3,
        }),
      ).toMatchObject({ ok: true });
    });

    it("replaces a transaction stuck in the node's pool by one outbidding it on the same nonce", async () => {
      const { store } = await freshStore();
      const clock = testClock();
      const { loop, registry } = loopOn(store, clock, chainOf());
      await checkpointOf(store, 0, 7);
      const client = createPublicClient({ transport: http(anvil.rpcUrl) });
      await anvil.rpc("evm_setAutomine", [false]);
      let first: Awaited<ReturnType<typeof client.getTransaction>>;
      let second: Awaited<ReturnType<typeof client.getTransaction>>;
      try {
        await loop.tick();
        const sent = (await findAnchor(store, 7))!;
        first = await client.getTransaction({ hash: sent.txHash! });
        expect(first.blockNumber).toBeNull();
        // Still in the pool just before the limit: it waits.
        clock.advance(REPLACE_AFTER_MS - POLL_MS / 2);
        await loop.tick();
        expect((await findAnchor(store, 7))!).toMatchObject({ state: "sent", txHash: sent.txHash, attempts: 0 });
        clock.advance(POLL_MS);
        await loop.tick();
        const replaced = (await findAnchor(store, 7))!;
        expect(replaced.txHash).not.toBe(sent.txHash);
        second = await client.getTransaction({ hash: replaced.txHash! });
        await anvil.mine(1);
      } finally {
        await anvil.rpc("evm_setAutomine", [true]);
      }
      expect(second.nonce).toBe(first.nonce);
      expect(second.maxFeePerGas! > first.maxFeePerGas!).toBe(true);
      expect(await metricValue(registry, "hcs_audit_anchor_transactions_total", { kind: "replace" })).toBe(1);
      await anvil.mine(2);
      clock.advance(POLL_MS);
      await loop.tick();
      expect((await findAnchor(store, 7))!).toMatchObject({ state: "finalized", txHash: second.hash });
    });

    it("lets one round of one process send for a checkpoint, however many try at once", async () => {
      const o = await freshStore();
      const second = o.another();
      if (second !== o.store) others.push(second);
      await checkpointOf(o.store, 0, 4);
      const clock = testClock();
      await enqueueAnchors(o.store, { chainId: anvil.chainId, contract }, clock.now());
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          claimDueAnchor(i % 2 ? second : o.store, `round-${i}`, clock.now(), 60_000),
        ),
      );
      expect(claims.filter((c) => c !== null)).toHaveLength(1);
      // The lease lapses: another round may take the anchor over (it finds the sent transaction, if any, first).
      clock.advance(60_001);
      expect(await claimDueAnchor(second, "later", clock.now(), 60_000)).not.toBeNull();

      const o2 = await freshStore();
      const peer = o2.another();
      if (peer !== o2.store) others.push(peer);
      await checkpointOf(o2.store, 0, 2);
      const before = await sentTransactions();
      const loops = [loopOn(o2.store, clock, chainOf()).loop, loopOn(peer, clock, chainOf()).loop];
      await Promise.all(loops.map((l) => l.tick()));
      expect(await sentTransactions()).toBe(before + 1);
    });

    it("refuses to send to a node serving another chain, and says so", async () => {
      const { store } = await freshStore();
      const clock = testClock();
      const { loop, registry } = loopOn(store, clock, chainOf({ chainId: 8453 }));
      await checkpointOf(store, 0, 2);
      const before = await sentTransactions();
      await loop.tick();
      const anchor = (await findAnchor(store, 2))!;
      expect(anchor).toMatchObject({ state: "pending", txHash: null, attempts: 1 });
      expect(anchor.lastError).toBe(
        `anchor_wrong_chain: the anchoring node serves chain ${anvil.chainId}, not chain 8453 (HCS_ANCHOR_CHAIN_ID): nothing is sent`,
      );
      expect(loop.status()).toMatchObject({ status: "degraded", pending: 1, failing: 1 });
      expect(await metricValue(registry, "hcs_audit_anchor_failures_total", { code: "anchor_wrong_chain" })).toBe(2);
      expect(await sentTransactions()).toBe(before);
    });

    it("backs off while the node is unreachable, keeps the failures countable, and lands the anchor once it is back", async () => {
      const { store } = await freshStore();
      const clock = testClock();
      const proxy: TcpProxy = await startTcpProxy({ host: "127.0.0.1", port: anvil.port });
      try {
        const rpcUrl = `http://127.0.0.1:${proxy.port}`;
        const { loop, registry } = loopOn(store, clock, chainOf({ rpcUrl, timeoutMs: 300 }));
        await loop.tick(); // the node is checked at start-up
        const checkpoint = await checkpointOf(store, 0, 6);
        proxy.blackhole();

        const t0 = clock.now().getTime();
        await loop.tick();
        let anchor = (await db(store, 6))!;
        expect(anchor).toMatchObject({ state: "pending", attempts: 1 });
        expect(anchor.last_error).toMatch(/^anchor_rpc_failed: /);
        expect(anchor.last_error).not.toContain(rpcUrl);
        expect(anchor.last_error).not.toContain("127.0.0.1");
        expect(Date.parse(anchor.next_attempt_at) - t0).toBe(POLL_MS);
        // Not due yet: a round now does nothing.
        await loop.tick();
        expect((await db(store, 6))!.attempts).toBe(1);
        for (const [attempts, wait] of [
          [2, 2 * POLL_MS],
          [3, 4 * POLL_MS],
          [4, 8 * POLL_MS],
          [5, 8 * POLL_MS], // capped
        ] as const) {
          clock.advance(Date.parse(anchor.next_attempt_at) - clock.now().getTime());
          await loop.tick();
          anchor = (await db(store, 6))!;
          expect(anchor.attempts).toBe(attempts);
          expect(Date.parse(anchor.next_attempt_at) - clock.now().getTime()).toBe(wait);
        }
        expect(await metricValue(registry, "hcs_audit_anchor_failures_total", { code: "anchor_rpc_failed" })).toBe(5);
        expect(loop.status()).toMatchObject({ status: "degraded", pending: 1, failing: 1 });
        const sentBefore = await sentTransactions();

        proxy.restore();
        clock.advance(8 * POLL_MS);
        await loop.tick();
        expect((await findAnchor(store, 6))!).toMatchObject({ state: "sent", attempts: 0, lastError: null });
        expect(await sentTransactions()).toBe(sentBefore + 1);
        await anvil.mine(2);
        clock.advance(POLL_MS);
        await loop.tick();
        const anchored = (await findAnchor(store, 6))!;
        expect(anchored.state).toBe("finalized");
        expect(loop.status()).toMatchObject({ status: "ok", pending: 0, failing: 0, last_finalized_size: 6 });
        expect(
          await checkAnchorOnChain({
            rpcUrl: anvil.rpcUrl,
            anchor: { ...anchored, txHash: anchored.txHash! },
            rootHash: checkpoint.rootHash,
            size: 6,
          }),
        ).toMatchObject({ ok: true });
      } finally {
        await proxy.close();
      }
    });
  });
});

const db = (store: Store, size: number) =>
  store.db.selectFrom("audit_anchors").selectAll().where("size", "=", size).executeTakeFirst();

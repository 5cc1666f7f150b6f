import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_KEYS, type Anvil, anchorKeyFile, startAnvil } from "../../test-support/anvil.js";
import { appendAuditRun } from "../../test-support/audit-events.js";
import { startTcpProxy, type TcpProxy } from "../../test-support/tcp-proxy.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";
import { checkAnchorOnChain } from "./anchor-check.js";
import { deployAnchorContract } from "./anchor-deploy.js";
import { findAnchor } from "./anchor-records.js";
import type { AnchoringStatus } from "./anchor-status.js";

// The server reaches the node through a proxy the test can take away and bring back (on the same port), as a
// node that is down for a while: connections refused meanwhile.
let anvil: Anvil;
let proxy: TcpProxy | null = null;
let proxyPort = 0;
let t: TestServer;

beforeAll(async () => {
  anvil = await startAnvil();
  const { address } = await deployAnchorContract(anvil, privateKeyToAccount(ANVIL_KEYS[0]));
  proxy = await startTcpProxy({ host: "127.0.0.1", port: anvil.port });
  proxyPort = proxy.port;
  t = await startTestServer({
    env: {
      HCS_CHECKPOINT_INTERVAL_S: "1",
      HCS_ANCHOR_RPC_URL: `http://127.0.0.1:${proxyPort}`,
      HCS_ANCHOR_CHAIN_ID: String(anvil.chainId),
      HCS_ANCHOR_KEY_FILE: anchorKeyFile(),
      HCS_ANCHOR_CONTRACT: address,
      HCS_ANCHOR_POLL_MS: "200",
    },
  });
});
afterAll(async () => {
  await t?.close();
  await proxy?.close();
  await anvil?.stop();
});

const anchoring = async () =>
  ((await t.request("/readyz")).json as { details: { anchoring: AnchoringStatus } }).details.anchoring;

async function metric(name: string): Promise<number> {
  const text = (await t.request("/metrics")).text;
  const line = text.split("\n").find((l) => l.startsWith(name));
  return line ? Number(line.split(" ").pop()) : 0;
}

async function until<T>(what: string, probe: () => Promise<T | null | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The largest checkpoint, once every checkpoint's anchor is finalized (mining a block per look). */
async function allAnchored() {
  return until("every checkpoint's anchor to be finalized", async () => {
    await anvil.mine(1);
    const store = t.server.deps.store;
    const checkpoints = await store.db.selectFrom("audit_checkpoints").select(["size", "root_hash"]).execute();
    const finalized = await store.db
      .selectFrom("audit_anchors")
      .select("size")
      .where("state", "=", "finalized")
      .execute();
    if (checkpoints.length === 0 || finalized.length !== checkpoints.length) return null;
    return checkpoints.sort((a, b) => Number(b.size) - Number(a.size))[0]!;
  });
}

describe("hcs-server serve with anchoring configured", () => {
  it("anchors scheduled checkpoints; while the node is down the failures show in /metrics and /readyz (still 200); once back, the anchor lands", async () => {
    const store = t.server.deps.store;
    // The bootstrap account's audit events make the first checkpoint; it is anchored while the node is up.
    const first = await allAnchored();
    expect(await anchoring()).toMatchObject({ status: "ok", last_finalized_size: Number(first.size) });

    // The node goes away; the log keeps working and signs its next checkpoint, which cannot be anchored.
    await proxy!.close();
    proxy = null;
    await appendAuditRun(store, 0, 3);
    const size = Number(first.size) + 3;
    await until(
      "failures",
      async () => (await metric('hcs_audit_anchor_failures_total{code="anchor_rpc_failed"}')) >= 2,
    );
    const ready = await t.request("/readyz");
    expect(ready.status).toBe(200);
    const degraded = (ready.json as { details: { anchoring: AnchoringStatus } }).details.anchoring;
    expect(degraded).toMatchObject({ status: "degraded", chain_id: anvil.chainId, pending: 1, failing: 1 });
    expect(degraded.status === "degraded" && degraded.last_error).toMatch(/^anchor_rpc_failed: /);
    expect(JSON.stringify(degraded)).not.toContain(String(proxyPort));
    expect(await metric("hcs_audit_anchor_pending")).toBe(1);
    expect(await findAnchor(store, size)).toMatchObject({ state: "pending", txHash: null });
    expect(await findAnchor(store, size)).not.toMatchObject({ attempts: 0 });

    // Back on the same address: the next retry sends it, and blocks follow until it is final.
    proxy = await startTcpProxy({ host: "127.0.0.1", port: anvil.port }, proxyPort);
    const latest = await allAnchored();
    expect(Number(latest.size)).toBe(size);
    const anchored = (await findAnchor(store, size))!;
    expect(
      await checkAnchorOnChain({
        rpcUrl: anvil.rpcUrl,
        anchor: { ...anchored, txHash: anchored.txHash! },
        rootHash: latest.root_hash,
        size,
      }),
    ).toMatchObject({ ok: true });
    await until("readiness to show it", async () => (await anchoring()).status === "ok");
    expect(await anchoring()).toMatchObject({ status: "ok", pending: 0, failing: 0, last_finalized_size: size });
    expect(await metric("hcs_audit_anchor_last_finalized_size")).toBe(size);
    expect(await metric("hcs_audit_anchor_pending")).toBe(0);
    // The key never reaches a log line.
    expect(t.logs.join("\n")).not.toContain(ANVIL_KEYS[0].slice(2));
  });
});

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuditProofBundleSchema } from "@hcs/protocol";
import { sql } from "kysely";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_KEYS, type Anvil, anchorKeyFile, startAnvil } from "../../test-support/anvil.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { runHcsServer } from "../../test-support/hcs-server-cli.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";
import { deployAnchorContract } from "./anchor-deploy.js";

// The whole path an auditor takes, on a real local chain: a proof from the API whose checkpoint is anchored and
// final, checked offline against the chain (`audit verify-proof --rpc-url`), and the operator's check of every
// anchor (`audit verify --rpc-url`) — both failing when the anchor's transaction is not the one on chain.

let anvil: Anvil;
let t: TestServer;
let deployTx: `0x${string}`;

beforeAll(async () => {
  anvil = await startAnvil();
  const deployed = await deployAnchorContract(anvil, privateKeyToAccount(ANVIL_KEYS[0]));
  deployTx = deployed.txHash;
  t = await startTestServer({
    env: {
      HCS_CHECKPOINT_INTERVAL_S: "1",
      HCS_ANCHOR_RPC_URL: anvil.rpcUrl,
      HCS_ANCHOR_CHAIN_ID: String(anvil.chainId),
      HCS_ANCHOR_KEY_FILE: anchorKeyFile(),
      HCS_ANCHOR_CONTRACT: deployed.address,
      HCS_ANCHOR_POLL_MS: "200",
    },
  });
});
afterAll(async () => {
  await t?.close();
  await anvil?.stop();
});

const hcs = (args: string[]) => runHcsServer(t.dataDir, args);

describe("anchored audit proofs", () => {
  it("carry a final anchor that the chain bears out, offline and for the whole log; a forged anchor fails", async () => {
    const owner = await accountWithKey(t.server.deps, { credits: 1000 });
    await gradedPractice(t.server.deps, owner.accountId, "1234567893");
    expect((await t.request("/v1/a2a/grade/1234567893", { headers: { "X-API-Key": owner.apiKey } })).status).toBe(200);
    const [event] = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select("id")
      .where("actor_account_id", "=", owner.accountId)
      .execute();

    // Mine until the event's checkpoint is anchored and final, as the proof reports it.
    const deadline = Date.now() + 20_000;
    let bundle: ReturnType<typeof AuditProofBundleSchema.parse> | null = null;
    while (Date.now() < deadline) {
      await anvil.mine(1);
      const res = await t.request(`/v1/a2a/audit/events/${event!.id}/proof`, {
        headers: { "X-API-Key": owner.apiKey },
      });
      if (res.status === 200 && res.json.checkpoint.anchor?.state === "finalized") {
        bundle = AuditProofBundleSchema.parse(res.json);
        break;
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(bundle, "the proof's checkpoint was never anchored").not.toBeNull();
    expect(bundle!.checkpoint.anchor).toMatchObject({ chain_id: anvil.chainId, state: "finalized" });

    const file = join(t.dataDir, "proof.json");
    writeFileSync(file, JSON.stringify(bundle));
    const offline = await hcs(["--json", "audit", "verify-proof", file, "--rpc-url", anvil.rpcUrl]);
    expect(offline.code, offline.stderr).toBe(0);
    expect(JSON.parse(offline.stdout).anchor).toMatch(new RegExp(`^on chain ${anvil.chainId}, block \\d+`));

    const whole = await hcs(["--json", "audit", "verify", "--rpc-url", anvil.rpcUrl]);
    expect(whole.code, whole.stderr).toBe(0);
    expect(JSON.parse(whole.stdout)).toMatchObject({ verified: true, anchor_mismatch: null });
    expect(JSON.parse(whole.stdout).anchors_checked).toBeGreaterThanOrEqual(1);

    // The anchor rewritten to name another transaction (the contract's deployment): both checks fail.
    writeFileSync(
      file,
      JSON.stringify({
        ...bundle,
        checkpoint: { ...bundle!.checkpoint, anchor: { ...bundle!.checkpoint.anchor, tx_hash: deployTx } },
      }),
    );
    const forgedProof = await hcs(["--json", "audit", "verify-proof", file, "--rpc-url", anvil.rpcUrl]);
    expect(forgedProof.code).toBe(3);
    expect(JSON.parse(forgedProof.stdout)).toMatchObject({ verified: false, failed_check: "anchor" });

    await sql`update audit_anchors set tx_hash = ${deployTx} where size = ${bundle!.checkpoint.size}`.execute(
      t.server.deps.store.db,
    );
    const forgedLog = await hcs(["--json", "audit", "verify", "--rpc-url", anvil.rpcUrl]);
    expect(forgedLog.code).toBe(3);
    expect(JSON.parse(forgedLog.stdout).anchor_mismatch).toMatch(
      new RegExp(`^checkpoint ${bundle!.checkpoint.size}: `),
    );
  });
});

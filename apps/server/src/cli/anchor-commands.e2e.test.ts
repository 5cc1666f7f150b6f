import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANVIL_KEYS, type Anvil, anchorKeyFile, startAnvil } from "../test-support/anvil.js";
import { registerAnchorCommands } from "./anchor-commands.js";

// The operator's anchoring commands, run in-process on a commander program as bin.ts builds it (an `audit` group),
// against a real local node.

const dataDir = mkdtempSync(join(tmpdir(), "hcs-anchor-cli-"));
let anvil: Anvil;
beforeAll(async () => {
  anvil = await startAnvil();
});
afterAll(async () => {
  await anvil?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function hcs(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const program = new Command("hcs-server").option("--json").exitOverride();
  registerAnchorCommands(program.command("audit"), {
    env: { HCS_DATA_DIR: dataDir, HCS_LOG_LEVEL: "silent", ...env },
    cwd: dataDir,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    operator: "tester",
  });
  await program.parseAsync(["node", "hcs-server", ...args]);
  return { out: out.join("\n"), err: err.join("\n") };
}

describe("hcs-server audit anchor-deploy and anchor-status", () => {
  it("deploys the contract owned by the operator's key, then reports anchoring's state and the account's funds", async () => {
    const endpoint = {
      HCS_ANCHOR_RPC_URL: anvil.rpcUrl,
      HCS_ANCHOR_CHAIN_ID: String(anvil.chainId),
      HCS_ANCHOR_KEY_FILE: anchorKeyFile(),
    };
    const deployed = await hcs(["--json", "audit", "anchor-deploy"], endpoint);
    const d = JSON.parse(deployed.out) as { contract: `0x${string}`; owner: string; chain_id: number };
    expect(d).toMatchObject({ owner: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", chain_id: anvil.chainId });
    const code = await createPublicClient({ transport: http(anvil.rpcUrl) }).getCode({ address: d.contract });
    expect(code?.length).toBeGreaterThan(2);

    const human = await hcs(["audit", "anchor-deploy"], endpoint);
    expect(human.err).toMatch(/^Set HCS_ANCHOR_CONTRACT=0x[0-9a-fA-F]{40} /);

    const status = await hcs(["--json", "audit", "anchor-status"], { ...endpoint, HCS_ANCHOR_CONTRACT: d.contract });
    expect(JSON.parse(status.out)).toMatchObject({
      anchoring: "configured",
      chain_id: anvil.chainId,
      node_chain_id: anvil.chainId,
      contract: d.contract,
      account: d.owner,
      pending: 0,
      last_finalized_size: null,
      unfinished: [],
    });
    expect(JSON.parse(status.out).balance).toMatch(/^9999\.\d+ \(native token\)$/);

    const off = await hcs(["--json", "audit", "anchor-status"], {});
    expect(JSON.parse(off.out)).toMatchObject({ anchoring: "not configured: checkpoints are not anchored" });
  });

  it("refuses to deploy through a node of another chain, or without a key file", async () => {
    const wrong = {
      HCS_ANCHOR_RPC_URL: anvil.rpcUrl,
      HCS_ANCHOR_CHAIN_ID: "8453",
      HCS_ANCHOR_KEY_FILE: anchorKeyFile(ANVIL_KEYS[1]),
    };
    await expect(hcs(["audit", "anchor-deploy"], wrong)).rejects.toMatchObject({
      code: "anchor_wrong_chain",
      message: `the node serves chain ${anvil.chainId}, not chain 8453 (HCS_ANCHOR_CHAIN_ID): nothing was deployed`,
    });
    await expect(
      hcs(["audit", "anchor-deploy"], { HCS_ANCHOR_RPC_URL: anvil.rpcUrl, HCS_ANCHOR_CHAIN_ID: "31337" }),
    ).rejects.toMatchObject({ code: "invalid_config", variable: "HCS_ANCHOR_KEY_FILE" });
  });
});

import { chmodSync, writeFileSync } from "node:fs";
import { HttpRequestError } from "viem";
import { describe, expect, it } from "vitest";
import { ConfigError, loadAnchorEndpoint, loadConfig } from "../../config.js";
import { ANVIL_KEYS, anchorKeyFile } from "../../test-support/anvil.js";
import { ExposedKeyFileError } from "../../util/private-files.js";
import { describeRpcError } from "./anchor-errors.js";
import { loadAnchorAccount } from "./anchor-key.js";

const CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const keyFile = anchorKeyFile();
const full = {
  HCS_ANCHOR_RPC_URL: "https://base-mainnet.provider.example/v2/SECRET-API-KEY",
  HCS_ANCHOR_CHAIN_ID: "8453",
  HCS_ANCHOR_KEY_FILE: keyFile,
  HCS_ANCHOR_CONTRACT: CONTRACT,
};
const configError = (env: Record<string, string>): ConfigError => {
  try {
    loadConfig(env, "/");
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("no ConfigError");
};

describe("anchoring configuration", () => {
  it("is off without the variables, on with all four, and a start-up error naming what is missing otherwise", () => {
    expect(loadConfig({}, "/").anchor).toBeNull();
    expect(loadConfig(full, "/").anchor).toEqual({
      rpcUrl: full.HCS_ANCHOR_RPC_URL,
      chainId: 8453,
      keyFile,
      contract: CONTRACT,
      pollMs: 15_000,
    });
    const { HCS_ANCHOR_KEY_FILE: _k, HCS_ANCHOR_CONTRACT: _c, ...partial } = full;
    const err = configError(partial);
    expect(err.variable).toBe("HCS_ANCHOR_KEY_FILE");
    expect(err.message).toContain("missing: HCS_ANCHOR_KEY_FILE, HCS_ANCHOR_CONTRACT");
  });

  it("refuses plain http to another machine, and never echoes the RPC URL (it may hold an API key)", () => {
    const remote = configError({ ...full, HCS_ANCHOR_RPC_URL: "http://rpc.example/SECRET-API-KEY" });
    expect(remote.variable).toBe("HCS_ANCHOR_RPC_URL");
    expect(remote.message).not.toContain("SECRET");
    expect(loadConfig({ ...full, HCS_ANCHOR_RPC_URL: "http://127.0.0.1:8545" }, "/").anchor?.rpcUrl).toBe(
      "http://127.0.0.1:8545",
    );
    expect(configError({ ...full, HCS_ANCHOR_CONTRACT: "0x1234" }).variable).toBe("HCS_ANCHOR_CONTRACT");
    expect(configError({ ...full, HCS_ANCHOR_CHAIN_ID: "base" }).variable).toBe("HCS_ANCHOR_CHAIN_ID");
  });

  it("deploying needs the node, chain and key, not yet the contract", () => {
    const { HCS_ANCHOR_CONTRACT: _c, ...endpoint } = full;
    expect(loadAnchorEndpoint(endpoint, "/")).toEqual({ rpcUrl: full.HCS_ANCHOR_RPC_URL, chainId: 8453, keyFile });
    expect(() => loadAnchorEndpoint({ HCS_ANCHOR_CHAIN_ID: "8453" }, "/")).toThrow(
      /HCS_ANCHOR_RPC_URL: deploying the anchor contract needs HCS_ANCHOR_RPC_URL, HCS_ANCHOR_KEY_FILE/,
    );
  });
});

describe("the anchoring key file", () => {
  it("loads an owner-only hex key, refuses one others can read, and never quotes what a bad file holds", () => {
    expect(loadAnchorAccount(keyFile).address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    const open = anchorKeyFile(ANVIL_KEYS[1].slice(2));
    expect(loadAnchorAccount(open).address).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    chmodSync(open, 0o640);
    expect(() => loadAnchorAccount(open)).toThrow(ExposedKeyFileError);

    const bad = anchorKeyFile();
    writeFileSync(bad, `${ANVIL_KEYS[0]}00\n`);
    let message = "";
    try {
      loadAnchorAccount(bad);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain("must hold one secp256k1 private key");
    expect(message).not.toContain(ANVIL_KEYS[0].slice(2, 20));
    writeFileSync(bad, "f".repeat(64)); // above the curve's order
    expect(() => loadAnchorAccount(bad)).toThrow(ConfigError);
  });
});

describe("RPC failures as stored and shown", () => {
  it("keep viem's short message and drop every URL", () => {
    const err = new HttpRequestError({
      url: "https://base-mainnet.provider.example/v2/SECRET-API-KEY",
      body: { method: "eth_chainId" },
      details: "fetch failed",
    });
    expect(err.message).toContain("SECRET-API-KEY");
    expect(describeRpcError(err)).toBe("HTTP request failed. (fetch failed)");
    expect(describeRpcError(new Error("connect to https://x.example/KEY refused"))).toBe("connect to <url> refused");
  });
});

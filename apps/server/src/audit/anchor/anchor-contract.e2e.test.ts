import { readFileSync } from "node:fs";
import { join } from "node:path";
import solc from "solc";
import { describe, expect, it } from "vitest";
import { ANCHOR_ABI, ANCHOR_BYTECODE, ANCHOR_COMPILER } from "./anchor-contract.js";

// solc-js compiles with its bundled compiler (never a download: loadRemoteVersion is not used).
function compile() {
  const { sourceName, contractName, settings } = ANCHOR_COMPILER;
  const input = {
    language: "Solidity",
    sources: { [sourceName]: { content: readFileSync(join(import.meta.dirname, sourceName), "utf8") } },
    settings: { ...settings, outputSelection: { "*": { [contractName]: ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown; evm: { bytecode: { object: string } } }>>;
  };
  return { output, contract: output.contracts[sourceName]?.[contractName] };
}

describe("the anchor contract", () => {
  it("committed ABI and bytecode are exactly what the pinned compiler makes of HcsAuditAnchor.sol", () => {
    expect(solc.version()).toBe(ANCHOR_COMPILER.version);
    const { output, contract } = compile();
    // Warnings would be shown to a reviewer too: the source compiles clean.
    expect(output.errors ?? []).toEqual([]);
    expect(contract).toBeDefined();
    expect(contract!.abi).toEqual(ANCHOR_ABI);
    expect(`0x${contract!.evm.bytecode.object}`).toBe(ANCHOR_BYTECODE);
  });
});

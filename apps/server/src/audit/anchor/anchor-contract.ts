// The compiled HcsAuditAnchor.sol, committed so that the server needs no compiler. anchor-contract.e2e.test.ts compiles the
// source again with solc-js under ANCHOR_COMPILER and fails if this ABI or bytecode is not exactly its output: the
// bytecode is reviewed by reading the .sol file.

/** The compiler and the standard-JSON settings the bytecode below was produced with (reproduce with solc-js or solc). */
export const ANCHOR_COMPILER = {
  version: "0.8.37+commit.f401782d.Emscripten.clang",
  sourceName: "HcsAuditAnchor.sol",
  contractName: "HcsAuditAnchor",
  // Optimizer on (200 runs); EVM "paris": no PUSH0 or later opcodes, so the contract deploys on every EVM chain,
  // including layer 2s that lag behind mainnet's hard forks.
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "paris",
    metadata: { bytecodeHash: "ipfs" },
  },
} as const;

/** The contract's ABI, as solc emits it. */
export const ANCHOR_ABI = [
  {
    inputs: [],
    stateMutability: "nonpayable",
    type: "constructor",
  },
  {
    inputs: [],
    name: "NotOwner",
    type: "error",
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: "bytes32",
        name: "root",
        type: "bytes32",
      },
      {
        indexed: false,
        internalType: "uint64",
        name: "treeSize",
        type: "uint64",
      },
      {
        indexed: false,
        internalType: "uint64",
        name: "day",
        type: "uint64",
      },
    ],
    name: "Anchored",
    type: "event",
  },
  {
    inputs: [
      {
        internalType: "bytes32",
        name: "root",
        type: "bytes32",
      },
      {
        internalType: "uint64",
        name: "treeSize",
        type: "uint64",
      },
      {
        internalType: "uint64",
        name: "day",
        type: "uint64",
      },
    ],
    name: "anchor",
    outputs: [],
    stateMutability: "nonpayable",
    type: "function",
  },
  {
    inputs: [],
    name: "owner",
    outputs: [
      {
        internalType: "address",
        name: "",
        type: "address",
      },
    ],
    stateMutability: "view",
    type: "function",
  },
] as const;

/** Creation bytecode of HcsAuditAnchor (the constructor records the deployer as owner). */
export const ANCHOR_BYTECODE = `0x${
  "60a0604052348015600f57600080fd5b50336080526080516101b66100346000396000818160550152609e01526101b66000" +
  "f3fe608060405234801561001057600080fd5b50600436106100365760003560e01c8063755c698a1461003b5780638da5cb" +
  "5b14610050575b600080fd5b61004e610049366004610144565b610093565b005b6100777f00000000000000000000000000" +
  "0000000000000000000000000000000000000081565b6040516001600160a01b03909116815260200160405180910390f35b" +
  "336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146100dc576040" +
  "516330cd747160e01b815260040160405180910390fd5b6040805167ffffffffffffffff8085168252831660208201528491" +
  "7f665a214d59c3b0d9e6c4975fba280be5e19b9b0862cff85b71d42433191945cf910160405180910390a2505050565b8035" +
  "67ffffffffffffffff8116811461013f57600080fd5b919050565b60008060006060848603121561015957600080fd5b8335" +
  "925061016960208501610127565b915061017760408501610127565b9050925092509256fea264697066735822122074ddaf" +
  "0c188931654b889bf3c3b4275f3be0dc5732a4f08f0975d5f471dc1b3564736f6c63430008250033"
}` as const;

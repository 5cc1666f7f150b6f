import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256 } from "./sha256.js";
import {
  consistencyProof,
  inclusionProof,
  MerkleFrontier,
  merkleRoot,
  RFC9162,
  rootFromInclusionProof,
  treeHasher,
  verifyConsistency,
  verifyInclusion,
} from "./tree.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const unhex = (h: string) => new Uint8Array(Buffer.from(h, "hex"));

// Published vectors, transcribed from transparency-dev/merkle proof/verify_test.go (Apache-2.0), which carries them
// over from the Certificate Transparency reference implementation's merkle_tree_test: the eight leaves, the tree
// heads of the first 1…8 of them, and inclusion and consistency proofs among those trees.
const LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"].map(
  unhex,
);
const ROOTS = [
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];
const EMPTY_ROOT = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const SOME_HASH = unhex("abacaba000000000000000000000000000000000000000000060061e00123456");
/** Leaf (1-based, as the source numbers them), tree size, audit path. */
const INCLUSION: [number, number, string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  ],
  [
    6,
    8,
    [
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
  [3, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]],
  [
    2,
    5,
    [
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  ],
];
/** Size of the first tree, of the second, consistency proof. */
const CONSISTENCY: [number, number, string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  ],
  [
    6,
    8,
    [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
  [
    2,
    5,
    [
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  ],
  [
    6,
    7,
    [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  ],
];

const leafHashes = LEAVES.map((l) => RFC9162.leaf(l));
const rootOf = (size: number) => unhex(ROOTS[size - 1]!);
const flip = (b: Uint8Array, bit: number) => {
  const c = b.slice();
  c[0]! ^= 1 << bit;
  return c;
};

/** The ways the reference tests corrupt a good inclusion proof: every one must fail. */
function corruptInclusions(index: number, size: number, proof: Uint8Array[], root: Uint8Array, leaf: Uint8Array) {
  const probes: [string, number, number, Uint8Array, Uint8Array[], Uint8Array][] = [
    ["index - 1", index - 1, size, leaf, proof, root],
    ["index + 1", index + 1, size, leaf, proof, root],
    ["index ^ 2", index ^ 2, size, leaf, proof, root],
    ["size * 2", index, size * 2, leaf, proof, root],
    ["size / 2", index, Math.floor(size / 2), leaf, proof, root],
    ["wrong leaf", index, size, new TextEncoder().encode("WrongLeaf"), proof, root],
    ["empty root", index, size, leaf, proof, unhex(EMPTY_ROOT)],
    ["random root", index, size, leaf, proof, SOME_HASH],
    ["trailing garbage", index, size, leaf, [...proof, new Uint8Array(0)], root],
    ["trailing root", index, size, leaf, [...proof, root], root],
    ["preceding garbage", index, size, leaf, [new Uint8Array(0), ...proof], root],
    ["preceding root", index, size, leaf, [root, ...proof], root],
  ];
  proof.forEach((_, i) => {
    probes.push([`proof[${i}] bit 3`, index, size, leaf, proof.map((p, j) => (j === i ? flip(p, 3) : p)), root]);
  });
  if (proof.length > 0) probes.push(["removed component", index, size, leaf, proof.slice(0, -1), root]);
  if (proof.length > 1)
    probes.push(["inserted component", index, size, leaf, [SOME_HASH, proof[0]!, ...proof.slice(1)], root]);
  return probes;
}

function corruptConsistencies(size1: number, size2: number, root1: Uint8Array, root2: Uint8Array, proof: Uint8Array[]) {
  const wrong = new TextEncoder().encode("WrongRoot");
  const probes: [string, number, number, Uint8Array, Uint8Array, Uint8Array[]][] = [
    ["size1 - 1", size1 - 1, size2, root1, root2, proof],
    ["size1 + 1", size1 + 1, size2, root1, root2, proof],
    ["size1 ^ 2", size1 ^ 2, size2, root1, root2, proof],
    ["size2 * 2", size1, size2 * 2, root1, root2, proof],
    ["size2 / 2", size1, Math.floor(size2 / 2), root1, root2, proof],
    ["wrong root1", size1, size2, wrong, root2, proof],
    ["wrong root2", size1, size2, root1, wrong, proof],
    ["swapped roots", size1, size2, root2, root1, proof],
    ["empty proof", size1, size2, root1, root2, []],
    ["trailing garbage", size1, size2, root1, root2, [...proof, new Uint8Array(0)]],
    ["trailing root1", size1, size2, root1, root2, [...proof, root1]],
    ["trailing root2", size1, size2, root1, root2, [...proof, root2]],
    ["preceding garbage", size1, size2, root1, root2, [new Uint8Array(0), ...proof]],
    ["preceding root1", size1, size2, root1, root2, [root1, ...proof]],
    ["preceding root2", size1, size2, root1, root2, [root2, ...proof]],
    ["preceding proof[0]", size1, size2, root1, root2, [proof[0]!, ...proof]],
    ["truncated proof", size1, size2, root1, root2, proof.slice(0, -1)],
  ];
  proof.forEach((_, i) => {
    probes.push([`proof[${i}] bit 4`, size1, size2, root1, root2, proof.map((p, j) => (j === i ? flip(p, 4) : p))]);
  });
  return probes;
}

describe("SHA-256 in plain TypeScript", () => {
  it("matches the FIPS 180-4 examples", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(hex(sha256(enc("abc")))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hex(sha256(enc("")))).toBe(EMPTY_ROOT);
    expect(hex(sha256(enc("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("agrees with Node's native SHA-256 on any input, across the block and padding boundaries", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        expect(hex(sha256(data))).toBe(createHash("sha256").update(data).digest("hex"));
      }),
      { numRuns: 500 },
    );
  });
});

describe("RFC 9162 tree heads", () => {
  it("are the published roots of the first 1…8 reference leaves, and SHA-256('') for the empty tree", () => {
    expect(hex(merkleRoot(RFC9162, []))).toBe(EMPTY_ROOT);
    for (let size = 1; size <= 8; size++)
      expect(hex(merkleRoot(RFC9162, leafHashes.slice(0, size)))).toBe(ROOTS[size - 1]);
  });

  it("are the same from the frontier after every append", () => {
    const frontier = new MerkleFrontier(RFC9162);
    expect(hex(frontier.root())).toBe(EMPTY_ROOT);
    leafHashes.forEach((h, i) => {
      frontier.append(h);
      expect(frontier.size).toBe(i + 1);
      expect(hex(frontier.root())).toBe(ROOTS[i]);
    });
  });

  it("survive saving and restoring the frontier at every size, and a state that does not add up is refused", () => {
    const frontier = new MerkleFrontier(RFC9162);
    for (const h of leafHashes) {
      const restored = MerkleFrontier.restore(RFC9162, JSON.parse(JSON.stringify(frontier.toJSON())));
      restored.append(h);
      frontier.append(h);
      expect(hex(restored.root())).toBe(hex(frontier.root()));
      expect(restored.size).toBe(frontier.size);
    }
    const good = frontier.toJSON(); // size 8: one peak of height 3
    expect(() => MerkleFrontier.restore(RFC9162, { ...good, size: 7 })).toThrow();
    expect(() =>
      MerkleFrontier.restore(RFC9162, { ...good, peaks: [{ height: 2, hash: good.peaks[0]!.hash }] }),
    ).toThrow();
    expect(() => MerkleFrontier.restore(RFC9162, { ...good, peaks: [{ height: 3, hash: "00" }] })).toThrow();
  });

  it("do not depend on which SHA-256 implementation computes them", () => {
    const native = treeHasher((d) => new Uint8Array(createHash("sha256").update(d).digest()));
    expect(
      hex(
        merkleRoot(
          native,
          LEAVES.map((l) => native.leaf(l)),
        ),
      ),
    ).toBe(ROOTS[7]);
  });
});

describe("inclusion proofs", () => {
  it.each(INCLUSION)(
    "leaf %i of %i: generated as published, verified, and every corruption refused",
    (leaf, size, path) => {
      const index = leaf - 1;
      const proof = path.map(unhex);
      expect(inclusionProof(RFC9162, leafHashes, index, size).map(hex)).toEqual(path);
      const root = rootOf(size);
      expect(hex(rootFromInclusionProof(RFC9162, index, size, leafHashes[index]!, proof)!)).toBe(hex(root));
      expect(verifyInclusion(RFC9162, index, size, leafHashes[index]!, proof, root)).toBe(true);
      const accepted = corruptInclusions(index, size, proof, root, leafHashes[index]!)
        .filter(([, i, s, l, p, r]) => verifyInclusion(RFC9162, i, s, l, p, r))
        .map(([name]) => name);
      expect(accepted).toEqual([]);
    },
  );

  it("refuses impossible positions and malformed hashes", () => {
    for (const [index, size] of [
      [0, 0],
      [1, 0],
      [2, 1],
      [-1, 4],
      [0.5, 4],
    ] as const) {
      expect(verifyInclusion(RFC9162, index, size, SOME_HASH, [], unhex(EMPTY_ROOT))).toBe(false);
    }
    const only = RFC9162.leaf(new TextEncoder().encode("data"));
    expect(verifyInclusion(RFC9162, 0, 1, only, [], only)).toBe(true);
    expect(verifyInclusion(RFC9162, 0, 1, new Uint8Array(0), [], only)).toBe(false);
    expect(verifyInclusion(RFC9162, 0, 1, only, [], new Uint8Array(0))).toBe(false);
    expect(() => inclusionProof(RFC9162, leafHashes, 8)).toThrow(RangeError);
  });
});

describe("consistency proofs", () => {
  it.each(CONSISTENCY)(
    "from %i to %i: generated as published, verified, and every corruption refused",
    (size1, size2, path) => {
      const proof = path.map(unhex);
      expect(consistencyProof(RFC9162, leafHashes, size1, size2).map(hex)).toEqual(path);
      const [root1, root2] = [rootOf(size1), rootOf(size2)];
      expect(verifyConsistency(RFC9162, size1, size2, proof, root1, root2)).toBe(true);
      if (proof.length === 0) return;
      const accepted = corruptConsistencies(size1, size2, root1, root2, proof)
        .filter(([, s1, s2, r1, r2, p]) => verifyConsistency(RFC9162, s1, s2, p, r1, r2))
        .map(([name]) => name);
      expect(accepted).toEqual([]);
    },
  );

  it("answers the reference's edge cases (sizes always consistent, time travel, empty proofs)", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const [r1, r2, empty] = [enc("don't care 1"), enc("don't care 2"), unhex(EMPTY_ROOT)];
    const cases: [number, number, Uint8Array, Uint8Array, Uint8Array[], boolean][] = [
      [0, 0, r1, r2, [], false],
      [1, 1, r1, r2, [], false],
      [0, 0, r1, r1, [], true],
      [0, 1, r1, r2, [], true],
      [1, 1, r2, r2, [], true],
      [1, 0, r1, r2, [], false],
      [2, 1, r1, r2, [], false],
      [1, 2, r1, r2, [], false],
      [0, 0, empty, r2, [], false],
      [1, 1, empty, r2, [], false],
      [0, 0, empty, empty, [empty], false],
      [0, 1, empty, empty, [empty], false],
      [1, 1, empty, empty, [empty], false],
    ];
    expect(cases.map(([s1, s2, a, b, p]) => verifyConsistency(RFC9162, s1, s2, p, a, b))).toEqual(
      cases.map((c) => c[5]),
    );
  });
});

describe("properties over random logs", () => {
  // Distinct leaves: with two equal leaves, one's proof may honestly prove the other's place too.
  const log = fc
    .uniqueArray(fc.uint8Array({ maxLength: 12 }), { minLength: 1, maxLength: 70, selector: (l) => hex(l) })
    .map((leaves) => leaves.map((l) => RFC9162.leaf(l)));

  it("every leaf's proof verifies against the head, and a wrong index or a flipped bit never does", () => {
    fc.assert(
      fc.property(log, fc.nat(), fc.nat(), (hashes, pick, bit) => {
        const size = hashes.length;
        const index = pick % size;
        const root = merkleRoot(RFC9162, hashes);
        const proof = inclusionProof(RFC9162, hashes, index);
        expect(verifyInclusion(RFC9162, index, size, hashes[index]!, proof, root)).toBe(true);
        if (size > 1) {
          const other = (index + 1) % size;
          expect(verifyInclusion(RFC9162, other, size, hashes[index]!, proof, root)).toBe(false);
        }
        if (proof.length > 0) {
          const at = bit % proof.length;
          const bad = proof.map((p, j) => (j === at ? flip(p, bit % 8) : p));
          expect(verifyInclusion(RFC9162, index, size, hashes[index]!, bad, root)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("every prefix is consistent with the whole log, and no other tree is", () => {
    fc.assert(
      fc.property(log, fc.nat(), (hashes, pick) => {
        const size2 = hashes.length;
        const size1 = pick % (size2 + 1);
        const root1 = merkleRoot(RFC9162, hashes.slice(0, size1));
        const root2 = merkleRoot(RFC9162, hashes);
        const proof = consistencyProof(RFC9162, hashes, size1);
        expect(verifyConsistency(RFC9162, size1, size2, proof, root1, root2)).toBe(true);
        if (size1 > 0 && size1 < size2) {
          // The same proof does not tie a rewritten prefix to the log.
          const rewritten = merkleRoot(RFC9162, [RFC9162.leaf(new Uint8Array([7, 7])), ...hashes.slice(1, size1)]);
          expect(verifyConsistency(RFC9162, size1, size2, proof, rewritten, root2)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

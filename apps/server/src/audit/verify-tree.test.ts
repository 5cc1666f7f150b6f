import { MerkleFrontier, RFC9162, sha256, utf8Bytes } from "@hcs/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesToLatin, latinToHex, leafHashOf, nodeHashOf, VerifierFrontier } from "./verify-tree.js";

// The verifier's latin1-string tree must be RFC 9162's byte for byte: held against the package's MerkleFrontier
// over its plain TypeScript SHA-256 (an implementation that shares nothing with Node's).

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("the verifier's tree (latin1 hashes)", () => {
  it("hashes leaves and nodes as RFC 9162 does", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 200 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (record, other) => {
          const leaf = leafHashOf(`\0${record}`);
          expect(latinToHex(leaf)).toBe(hex(RFC9162.leaf(utf8Bytes(record))));
          const right = bytesToLatin(other);
          expect(latinToHex(nodeHashOf(leaf, right))).toBe(hex(RFC9162.node(RFC9162.leaf(utf8Bytes(record)), other)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps MerkleFrontier's state after every append, at any size", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer(), (n, seed) => {
        const ours = new VerifierFrontier();
        const reference = new MerkleFrontier(RFC9162);
        expect(ours.toJSON()).toEqual(reference.toJSON());
        for (let i = 0; i < n; i++) {
          const leaf = sha256(utf8Bytes(`${seed}:${i}`));
          ours.append(bytesToLatin(leaf));
          reference.append(leaf);
          expect(ours.toJSON()).toEqual(reference.toJSON());
        }
        expect(ours.size).toBe(n);
      }),
      { numRuns: 40 },
    );
  });
});

import { hash } from "node:crypto";
import type { FrontierState } from "@hcs/protocol";

/**
 * Bytes in a SHA-256 hash (@hcs/protocol's HASH_BYTES; not imported from there, whose index loads every schema of the
 * API: the verifier's worker thread starts without it).
 */
export const HASH_BYTES = 32;

// `audit verify` hashes every record and rebuilds the whole tree: two native SHA-256 calls per event. Asked for a
// Buffer, Node allocates one (with its own backing store, collected later) per call, which costs ~3× the 65-byte
// digest itself; asked for a latin1 string, it returns a 32-character one-byte string on V8's heap. So the verifier
// holds its hashes as such strings (one character per byte) and writes them back into one reused buffer to hash a
// node (docs/performance.md#the-audit-logs-cost). The hashes are RFC 9162's, byte for byte. ("binary" is Node's
// name for latin1 in its typings.)

/** A SHA-256 digest as 32 latin1 characters (character i is byte i). */
export type LatinHash = string;

/** The leaf hash of a leaf input (0x00 and the record's canonical JSON, already prefixed). */
export const leafHashOf = (leafInput: string): LatinHash => hash("sha256", leafInput, "binary");

/** 0x01 and two 32-byte children: one buffer reused for every node (hash() copies its input). */
const nodeInput = Buffer.alloc(1 + 2 * HASH_BYTES, 1);

/**
 * SHA-256(0x01 || left || right): an RFC 9162 interior node. The children are copied in character by character: a
 * loop the JIT compiles costs ~55 ns less per node than two `buf.write(…, "latin1")` calls (each a trip into C++ with
 * its encoding lookup), and a verify hashes one node per event (docs/performance.md#the-audit-logs-cost).
 */
export function nodeHashOf(left: LatinHash, right: LatinHash): LatinHash {
  for (let k = 0; k < HASH_BYTES; k++) {
    nodeInput[1 + k] = left.charCodeAt(k);
    nodeInput[1 + HASH_BYTES + k] = right.charCodeAt(k);
  }
  return hash("sha256", nodeInput, "binary");
}

export const latinToHex = (h: LatinHash): string => Buffer.from(h, "latin1").toString("hex");
export const bytesToLatin = (b: Uint8Array): LatinHash =>
  Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1");

/**
 * The right border of the tree being rebuilt, as MerkleFrontier (@hcs/protocol) keeps it — the roots of the perfect
 * subtrees the size decomposes into, largest first — with latin1 hashes. Its state is MerkleFrontier's.
 */
export class VerifierFrontier {
  private readonly peaks: LatinHash[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  append(leaf: LatinHash): void {
    let hash = leaf;
    // Merge as a binary counter carries: one node per trailing 1 bit of the size (arithmetic: sizes pass 2^32).
    for (let s = this.count; s % 2 === 1; s = (s - 1) / 2) hash = nodeHashOf(this.peaks.pop()!, hash);
    this.peaks.push(hash);
    this.count++;
  }

  /** MerkleFrontier's saved state of the same leaves (peaks largest first, hex hashes). */
  toJSON(): FrontierState {
    const heights: number[] = [];
    for (let s = this.count, height = 0; s > 0; s = Math.floor(s / 2), height++)
      if (s % 2 === 1) heights.unshift(height);
    return { size: this.count, peaks: this.peaks.map((h, i) => ({ height: heights[i]!, hash: latinToHex(h) })) };
  }
}

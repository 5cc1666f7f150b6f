// RFC 9162 §2.1 Merkle trees (the Certificate Transparency v2 tree, unchanged from RFC 6962): leaf and node hashes,
// the tree head, inclusion and consistency proofs — generated from a list of leaf hashes, and verified from nothing
// but the proof. Pure: no I/O, no runtime globals; the hash function is passed in (sha256 from this package, or a
// native one with the same output).
//
// Indexes and sizes are JavaScript numbers (exact to 2^53); arithmetic on them is by division, never by 32-bit
// bitwise operators.

import { fromHex, toHex } from "../encoding.js";
import { type Digest, sha256 } from "./sha256.js";

/** A frontier as saved between runs of a sequencer. */
export interface FrontierState {
  readonly size: number;
  readonly peaks: readonly { readonly height: number; readonly hash: string }[];
}

/** Hash length of SHA-256, the only hash RFC 9162 logs here use. */
export const HASH_BYTES = 32;

/** The domain-separated hashes of RFC 9162 §2.1.1, over a digest. */
export interface TreeHasher {
  /** MTH({}) = HASH() — the head of the empty tree. */
  emptyRoot(): Uint8Array;
  /** HASH(0x00 || leaf). */
  leaf(leaf: Uint8Array): Uint8Array;
  /** HASH(0x01 || left || right). */
  node(left: Uint8Array, right: Uint8Array): Uint8Array;
}

export function treeHasher(digest: Digest = sha256): TreeHasher {
  return {
    emptyRoot: () => digest(new Uint8Array(0)),
    leaf(leaf) {
      const bytes = new Uint8Array(leaf.length + 1);
      bytes[0] = 0x00;
      bytes.set(leaf, 1);
      return digest(bytes);
    },
    node(left, right) {
      const bytes = new Uint8Array(left.length + right.length + 1);
      bytes[0] = 0x01;
      bytes.set(left, 1);
      bytes.set(right, 1 + left.length);
      return digest(bytes);
    },
  };
}

/** The RFC 9162 hasher over this package's SHA-256. */
export const RFC9162 = treeHasher(sha256);

const isOdd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

/** The largest power of two smaller than n (n > 1): where RFC 9162 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** MTH(D[start:end]) over leaf hashes (RFC 9162 §2.1.1), computed bottom-up without recursion. */
export function subtreeRoot(
  hasher: TreeHasher,
  leafHashes: readonly Uint8Array[],
  start = 0,
  end = leafHashes.length,
): Uint8Array {
  if (end <= start) return hasher.emptyRoot();
  const frontier = new MerkleFrontier(hasher);
  for (let i = start; i < end; i++) frontier.append(leafHashes[i]!);
  return frontier.root();
}

/**
 * The right border of a growing tree (the roots of its perfect subtrees, largest first): appending a leaf hash and
 * taking the tree head both cost O(log n) hashes and memory, whatever the size. What a sequencer keeps between
 * batches, and what a verifier walks a whole log with.
 */
export class MerkleFrontier {
  /** Roots of the perfect subtrees the size decomposes into, largest (leftmost) first, with their heights. */
  private readonly peaks: { height: number; hash: Uint8Array }[] = [];
  private count = 0;

  constructor(private readonly hasher: TreeHasher) {}

  /**
   * A frontier saved by {@link toJSON}, checked: the peaks' heights must be the binary decomposition of the size,
   * largest first, and every hash 32 bytes; anything else is refused (a stored state that does not add up).
   */
  static restore(hasher: TreeHasher, saved: FrontierState): MerkleFrontier {
    const frontier = new MerkleFrontier(hasher);
    let rest = saved.size;
    const expected: number[] = [];
    for (let height = 52; height >= 0; height--) {
      const span = 2 ** height;
      if (rest >= span) {
        expected.push(height);
        rest -= span;
      }
    }
    if (!Number.isSafeInteger(saved.size) || saved.size < 0 || saved.peaks.length !== expected.length)
      throw new Error("the saved frontier does not match its size");
    for (const [i, peak] of saved.peaks.entries()) {
      const hash = fromHex(peak.hash);
      if (peak.height !== expected[i] || !hash || hash.length !== HASH_BYTES)
        throw new Error("the saved frontier does not match its size");
      frontier.peaks.push({ height: peak.height, hash });
    }
    frontier.count = saved.size;
    return frontier;
  }

  /** The state to save between runs (hex hashes: JSON-friendly). */
  toJSON(): FrontierState {
    return { size: this.count, peaks: this.peaks.map((p) => ({ height: p.height, hash: toHex(p.hash) })) };
  }

  get size(): number {
    return this.count;
  }

  append(leafHash: Uint8Array): void {
    let hash = leafHash;
    let height = 0;
    // Merge equal-height peaks, as a binary counter carries.
    while (this.peaks.length > 0 && this.peaks[this.peaks.length - 1]!.height === height) {
      hash = this.hasher.node(this.peaks.pop()!.hash, hash);
      height++;
    }
    this.peaks.push({ height, hash });
    this.count++;
  }

  /** MTH of the leaves appended so far: the peaks folded right to left. */
  root(): Uint8Array {
    if (this.peaks.length === 0) return this.hasher.emptyRoot();
    let root = this.peaks[this.peaks.length - 1]!.hash;
    for (let i = this.peaks.length - 2; i >= 0; i--) root = this.hasher.node(this.peaks[i]!.hash, root);
    return root;
  }
}

/** The tree head of a list of leaf hashes. */
export function merkleRoot(hasher: TreeHasher, leafHashes: readonly Uint8Array[]): Uint8Array {
  return subtreeRoot(hasher, leafHashes);
}

/**
 * The inclusion proof (audit path) of leaf `index` in the tree of the first `size` leaf hashes: PATH(m, D[n]) of
 * RFC 9162 §2.1.3.1, bottom-most sibling first.
 */
export function inclusionProof(
  hasher: TreeHasher,
  leafHashes: readonly Uint8Array[],
  index: number,
  size = leafHashes.length,
): Uint8Array[] {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size)
    throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  if (size > leafHashes.length) throw new RangeError(`a tree of ${size} needs ${size} leaf hashes`);
  const path: Uint8Array[] = [];
  const walk = (m: number, start: number, end: number): void => {
    const n = end - start;
    if (n <= 1) return;
    const k = splitPoint(n);
    if (m < k) {
      walk(m, start, start + k);
      path.push(subtreeRoot(hasher, leafHashes, start + k, end));
    } else {
      walk(m - k, start + k, end);
      path.push(subtreeRoot(hasher, leafHashes, start, start + k));
    }
  };
  walk(index, 0, size);
  return path;
}

/**
 * The consistency proof between the tree of the first `size1` leaf hashes and that of the first `size2`:
 * PROOF(m, D[n]) of RFC 9162 §2.1.4.1. Empty when size1 is 0 or equal to size2.
 */
export function consistencyProof(
  hasher: TreeHasher,
  leafHashes: readonly Uint8Array[],
  size1: number,
  size2 = leafHashes.length,
): Uint8Array[] {
  if (!Number.isSafeInteger(size1) || !Number.isSafeInteger(size2) || size1 < 0 || size1 > size2)
    throw new RangeError(`no consistency proof from a tree of ${size1} to one of ${size2}`);
  if (size2 > leafHashes.length) throw new RangeError(`a tree of ${size2} needs ${size2} leaf hashes`);
  const proof: Uint8Array[] = [];
  if (size1 === 0 || size1 === size2) return proof;
  // SUBPROOF(m, D[start:end], b): b says whether D[start:start+m] is a subtree the verifier already has.
  const sub = (m: number, start: number, end: number, complete: boolean): void => {
    const n = end - start;
    if (m === n) {
      if (!complete) proof.push(subtreeRoot(hasher, leafHashes, start, end));
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      sub(m, start, start + k, complete);
      proof.push(subtreeRoot(hasher, leafHashes, start + k, end));
    } else {
      sub(m - k, start + k, end, false);
      proof.push(subtreeRoot(hasher, leafHashes, start, start + k));
    }
  };
  sub(size1, 0, size2, true);
  return proof;
}

const wellFormed = (hashes: readonly Uint8Array[]) => hashes.every((h) => h.length === HASH_BYTES);

/**
 * The root an inclusion proof leads to (RFC 9162 §2.1.3.2), or null when the proof cannot be one for leaf `index`
 * of a tree of `size` (wrong length, malformed hashes).
 */
export function rootFromInclusionProof(
  hasher: TreeHasher,
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
): Uint8Array | null {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null;
  if (leafHash.length !== HASH_BYTES || !wellFormed(proof)) return null;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return null;
    if (isOdd(fn) || fn === sn) {
      r = hasher.node(p, r);
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = hasher.node(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

/** Whether `proof` proves leaf `index` with hash `leafHash` is in the tree of `size` leaves whose head is `root`. */
export function verifyInclusion(
  hasher: TreeHasher,
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  const computed = rootFromInclusionProof(hasher, index, size, leafHash, proof);
  return computed !== null && equalBytes(computed, root);
}

/**
 * Whether `proof` proves the tree of `size1` leaves with head `root1` is a prefix of the tree of `size2` leaves with
 * head `root2` (RFC 9162 §2.1.4.2). Equal sizes need equal heads and an empty proof; from the empty tree every
 * tree is consistent with an empty proof.
 */
export function verifyConsistency(
  hasher: TreeHasher,
  size1: number,
  size2: number,
  proof: readonly Uint8Array[],
  root1: Uint8Array,
  root2: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(size1) || !Number.isSafeInteger(size2) || size1 < 0 || size2 < size1) return false;
  if (size1 === size2) return proof.length === 0 && equalBytes(root1, root2);
  if (size1 === 0) return proof.length === 0;
  if (proof.length === 0 || !wellFormed(proof) || root1.length !== HASH_BYTES || root2.length !== HASH_BYTES)
    return false;
  // A first tree whose size is a power of two is itself a node of the second: the proof starts from its head.
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof];
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = hasher.node(c, fr);
      sr = hasher.node(c, sr);
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = hasher.node(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalBytes(fr, root1) && equalBytes(sr, root2);
}

import { hash } from "node:crypto";
import { HASH_BYTES, type TreeHasher, treeHasher } from "@hcs/protocol/schema-free";

const generic = treeHasher((data) => hash("sha256", data, "buffer"));
/** 0x01 and two 32-byte children: one buffer reused for every node (hash() copies its input; no allocation). */
const nodeInput = Buffer.alloc(1 + 2 * HASH_BYTES, 1);

/**
 * RFC 9162 hashing with Node's native SHA-256 (the package's plain TypeScript one is for verifiers elsewhere). Node
 * hashes — one per leaf when a tree is built — are computed in a reused buffer.
 */
export const NATIVE_RFC9162: TreeHasher = {
  emptyRoot: generic.emptyRoot,
  leaf: generic.leaf,
  node(left, right) {
    if (left.length !== HASH_BYTES || right.length !== HASH_BYTES) return generic.node(left, right);
    nodeInput.set(left, 1);
    nodeInput.set(right, 1 + HASH_BYTES);
    return hash("sha256", nodeInput, "buffer");
  },
};

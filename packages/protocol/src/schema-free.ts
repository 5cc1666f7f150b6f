// The package's entry for worker threads (`@hcs/protocol/schema-free`): what they use, without the zod schemas.
// A worker thread is a V8 isolate of its own, and the full entry (every wire schema, and zod) costs each isolate that
// loads it ~8 MiB of heap (docs/performance.md#memory). Everything here is also exported by
// the full entry, from the same modules.
export { toHex } from "./encoding.js";
export { ERROR_CODES, type ErrorCode, httpStatusFor } from "./error-codes.js";
export { type FrontierState, HASH_BYTES, MerkleFrontier, type TreeHasher, treeHasher } from "./merkle/tree.js";
export { RATE_LIMITS } from "./rate-limits.js";

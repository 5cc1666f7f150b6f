// An audit event's proof bundle, as `GET /v1/a2a/audit/events/{id}/proof` answers it and `hcs-server audit
// verify-proof` checks it: the hashed record, its leaf index and hash, the inclusion proof to a signed checkpoint,
// the checkpoint (a C2SP signed note), the log's verifier key and the checkpoint's anchor on chain. Verifying needs
// nothing but this package and an Ed25519 verifier: what an auditor runs, with no access to the service's store.

import { z } from "zod";
import { fromHex, toHex, utf8Bytes } from "../encoding.js";
import { canonicalJson, isJsonValue } from "../json.js";
import { parseCheckpoint } from "./checkpoint.js";
import { type Ed25519Verify, openNote, parseVerifierKey } from "./signed-note.js";
import { equalBytes, RFC9162, rootFromInclusionProof, type TreeHasher } from "./tree.js";

export const AUDIT_PROOF_FORMAT = "hcs-audit-proof/v1";

const Hash = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 hash, 64 lowercase hex digits");

/** The record exactly as the log hashed it (audit record v1: operation, transport, actor, resource, outcome…). */
export const AuditRecordSchema = z
  .object({ v: z.literal(1) })
  .catchall(z.unknown())
  .refine((r) => isJsonValue(r), { message: "a JSON object" })
  .meta({ id: "AuditRecord", description: "An audit record as hashed into the log (audit record v1)" });

export const AuditAnchorViewSchema = z
  .strictObject({
    /** `finalized`: the block is final on the chain; `sent`/`pending`: not yet — the checkpoint is not anchored yet. */
    state: z.enum(["pending", "sent", "finalized"]),
    chain_id: z.int().positive(),
    contract: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    /** The checkpoint's UTC day as YYYYMMDD, as the on-chain event carries it. */
    day: z.int().min(19700101).max(99991231),
    tx_hash: z
      .string()
      .regex(/^0x[0-9a-f]{64}$/)
      .nullable(),
    block_number: z.int().nonnegative().nullable(),
    block_hash: z
      .string()
      .regex(/^0x[0-9a-f]{64}$/)
      .nullable(),
  })
  .meta({ id: "AuditAnchor", description: "Where a checkpoint is anchored on an EVM chain" });
export type AuditAnchorView = z.infer<typeof AuditAnchorViewSchema>;

export const AuditCheckpointViewSchema = z
  .strictObject({
    size: z.int().positive(),
    root_hash: Hash,
    /** The C2SP tlog-checkpoint body signed as a C2SP signed note by the log's key. */
    note: z.string().min(1).max(16_384),
    created_at: z.iso.datetime(),
    /** Null when anchoring is not configured or has not reached this checkpoint yet. */
    anchor: AuditAnchorViewSchema.nullable(),
  })
  .meta({ id: "AuditCheckpoint", description: "A signed checkpoint of the audit log" });
export type AuditCheckpointView = z.infer<typeof AuditCheckpointViewSchema>;

export const AuditProofBundleSchema = z
  .strictObject({
    format: z.literal(AUDIT_PROOF_FORMAT),
    event: z.strictObject({ id: z.int().positive(), record: AuditRecordSchema }),
    leaf_index: z.int().nonnegative(),
    /** SHA-256(0x00 || canonical JSON of the record), hex. */
    leaf_hash: Hash,
    /** RFC 9162 inclusion proof of the leaf in the checkpoint's tree, bottom-most sibling first. */
    inclusion_proof: z.array(Hash).max(64),
    checkpoint: AuditCheckpointViewSchema,
    /** The log's C2SP verifier key (also at /.well-known/hcs-audit-log-key): trust it from there, not from here. */
    verifier_key: z.string().min(1).max(1000),
  })
  .meta({ id: "AuditProofBundle", description: "An audit event with its inclusion proof to a signed checkpoint" });
export type AuditProofBundle = z.infer<typeof AuditProofBundleSchema>;

/** Which check of a bundle failed, in the order they run. */
export type AuditProofFailure =
  | "malformed"
  | "leaf_hash"
  | "verifier_key"
  | "checkpoint_signature"
  | "checkpoint_mismatch"
  | "inclusion";

export type AuditProofVerdict =
  | {
      readonly ok: true;
      readonly leafIndex: number;
      readonly treeSize: number;
      readonly origin: string;
      /** True when the checkpoint was opened with a key the caller supplied, not the bundle's own. */
      readonly keyTrusted: boolean;
    }
  | { readonly ok: false; readonly failure: AuditProofFailure; readonly message: string };

/** The RFC 9162 leaf hash of an audit record: SHA-256 over 0x00 and the record's RFC 8785 canonical JSON. */
export function auditRecordLeafHash(record: unknown, hasher: TreeHasher = RFC9162): Uint8Array {
  return hasher.leaf(utf8Bytes(canonicalJson(record)));
}

/**
 * Checks a proof bundle: the record hashes to the leaf, the checkpoint is signed by the log's key (the one the
 * caller trusts, when given — a bundle's own key proves only that the bundle is self-consistent), the checkpoint
 * body states the size and head the bundle claims, and the inclusion proof leads from the leaf to that head.
 */
export function verifyAuditProof(
  input: unknown,
  options: { readonly verify: Ed25519Verify; readonly trustedKey?: string; readonly hasher?: TreeHasher },
): AuditProofVerdict {
  const fail = (failure: AuditProofFailure, message: string): AuditProofVerdict => ({ ok: false, failure, message });
  const parsed = AuditProofBundleSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail("malformed", `not an audit proof bundle: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
  }
  const bundle = parsed.data;
  const hasher = options.hasher ?? RFC9162;
  const leaf = auditRecordLeafHash(bundle.event.record, hasher);
  if (toHex(leaf) !== bundle.leaf_hash)
    return fail("leaf_hash", `event ${bundle.event.id}'s record does not hash to its leaf hash (altered record)`);
  const keyText = options.trustedKey ?? bundle.verifier_key;
  if (options.trustedKey !== undefined && options.trustedKey.trim() !== bundle.verifier_key)
    return fail("verifier_key", "the bundle names another verifier key than the one you trust");
  const key = parseVerifierKey(keyText.trim());
  if (!key) return fail("verifier_key", "the verifier key is not a C2SP verifier key (name+hash+base64 key)");
  const opened = openNote(bundle.checkpoint.note, key, options.verify);
  if (!opened.ok)
    return fail("checkpoint_signature", `the checkpoint does not open with the log's key: ${opened.reason}`);
  const checkpoint = parseCheckpoint(opened.text);
  if (!checkpoint) return fail("checkpoint_mismatch", "the signed text is not a tlog-checkpoint");
  if (checkpoint.origin !== key.name)
    return fail("checkpoint_mismatch", `the checkpoint's origin ${checkpoint.origin} is not the key's log ${key.name}`);
  if (checkpoint.size !== bundle.checkpoint.size || toHex(checkpoint.rootHash) !== bundle.checkpoint.root_hash)
    return fail("checkpoint_mismatch", "the signed checkpoint states another size or head than the bundle");
  const proof = bundle.inclusion_proof.map((h) => fromHex(h)!);
  const root = rootFromInclusionProof(hasher, bundle.leaf_index, checkpoint.size, leaf, proof);
  if (root === null || !equalBytes(root, checkpoint.rootHash))
    return fail(
      "inclusion",
      `the inclusion proof does not lead from leaf ${bundle.leaf_index} to the head of the tree of ${checkpoint.size}`,
    );
  return {
    ok: true,
    leafIndex: bundle.leaf_index,
    treeSize: checkpoint.size,
    origin: key.name,
    keyTrusted: options.trustedKey !== undefined,
  };
}

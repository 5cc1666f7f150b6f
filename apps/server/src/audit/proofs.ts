import {
  AUDIT_PROOF_FORMAT,
  type AuditAnchorView,
  type AuditCheckpointView,
  type AuditProofBundle,
  inclusionProof,
  toHex,
} from "@hcs/protocol";
import type { AppDeps } from "../app-deps.js";
import { ServiceError } from "../errors.js";
import { auditRecordOf } from "../services/audit.js";
import type { Store } from "../store/store.js";
import { readLeafHashes } from "./leaves.js";
import { NATIVE_RFC9162 } from "./sequencer.js";

/** What proofs are made from: the store, and the log key whose verifier key they carry. */
export type ProofDeps = Pick<AppDeps, "store" | "auditLogKey">;

interface CheckpointRow {
  size: number | string;
  root_hash: string;
  note: string;
  created_at: string;
}

/** Where a checkpoint is anchored, or null (anchoring not configured, or not reached this checkpoint yet). */
export async function anchorView(_store: Store, _size: number): Promise<AuditAnchorView | null> {
  return null;
}

async function viewOf(store: Store, row: CheckpointRow): Promise<AuditCheckpointView> {
  const size = Number(row.size);
  return {
    size,
    root_hash: row.root_hash,
    note: row.note,
    created_at: row.created_at,
    anchor: await anchorView(store, size),
  };
}

const checkpoints = (store: Store) =>
  store.db.selectFrom("audit_checkpoints").select(["size", "root_hash", "note", "created_at"]);

/** The log's key, without which no checkpoint can be checked (a process that signs none has nothing to show). */
function verifierKeyOf(deps: ProofDeps): string {
  if (!deps.auditLogKey) throw new ServiceError("not_found", "this process signs no audit checkpoints");
  return deps.auditLogKey.verifierKey;
}

/** The latest signed checkpoint, its anchor and the log's verifier key. */
export async function latestCheckpoint(
  deps: ProofDeps,
): Promise<AuditCheckpointView & { readonly verifier_key: string }> {
  const verifierKey = verifierKeyOf(deps);
  const row = await checkpoints(deps.store).orderBy("size", "desc").limit(1).executeTakeFirst();
  if (!row)
    throw new ServiceError("not_checkpointed", "the audit log has no signed checkpoint yet", {
      retry: "checkpoints are signed every HCS_CHECKPOINT_INTERVAL_S seconds (default daily)",
    });
  return { ...(await viewOf(deps.store, row)), verifier_key: verifierKey };
}

/**
 * The checkpoint a proof for leaf `index` goes to: the latest one whose anchor is final and that covers the leaf,
 * else (anchoring not configured, or not final yet) the latest one that covers it; null when none does yet.
 */
async function checkpointCovering(store: Store, index: number): Promise<CheckpointRow | null> {
  const covering = await checkpoints(store).where("size", ">", index).orderBy("size", "desc").limit(32).execute();
  for (const row of covering) {
    if ((await anchorView(store, Number(row.size)))?.state === "finalized") return row;
  }
  return covering[0] ?? null;
}

/**
 * An event's proof bundle, for the account that made the call (its actor): the record as hashed, its leaf and the
 * inclusion proof to a signed checkpoint. Another account's event — or one no account made — is `not_found`, never
 * `forbidden`: nobody learns that someone else's event exists.
 */
export async function auditProofFor(deps: ProofDeps, eventId: number, accountId: string): Promise<AuditProofBundle> {
  const verifierKey = verifierKeyOf(deps);
  const event = await deps.store.db
    .selectFrom("audit_events")
    .selectAll()
    .where("id", "=", eventId)
    .where("actor_account_id", "=", accountId)
    .executeTakeFirst();
  if (!event) throw new ServiceError("not_found", "no such audit event of your account");
  if (event.leaf_index === null)
    throw new ServiceError("not_checkpointed", "the event is not in the log yet (it is sequenced within a second)", {
      event_id: eventId,
    });
  const index = Number(event.leaf_index);
  const checkpoint = await checkpointCovering(deps.store, index);
  if (!checkpoint)
    throw new ServiceError("not_checkpointed", "no signed checkpoint covers the event yet", {
      event_id: eventId,
      leaf_index: index,
      retry: "checkpoints are signed every HCS_CHECKPOINT_INTERVAL_S seconds (default daily)",
    });
  const view = await viewOf(deps.store, checkpoint);
  const leaves = await readLeafHashes(deps.store.db, view.size);
  return {
    format: AUDIT_PROOF_FORMAT,
    event: { id: eventId, record: { ...auditRecordOf(event, event.salt) } },
    leaf_index: index,
    leaf_hash: event.leaf_hash,
    inclusion_proof: inclusionProof(NATIVE_RFC9162, leaves, index, view.size).map(toHex),
    checkpoint: view,
    verifier_key: verifierKey,
  };
}

import {
  AUDIT_PROOF_FORMAT,
  type AuditAnchorView,
  type AuditCheckpointView,
  type AuditProofBundle,
  inclusionProof,
  toHex,
} from "@hcs/protocol";
import type { Selectable } from "kysely";
import type { AppDeps } from "../app-deps.js";
import { ServiceError } from "../errors.js";
import { auditRecordOf } from "../services/audit.js";
import type { AuditEventsTable } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { findAnchor } from "./anchor/anchor-records.js";
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
export async function anchorView(store: Store, size: number): Promise<AuditAnchorView | null> {
  const a = await findAnchor(store, size);
  return a
    ? {
        state: a.state,
        chain_id: a.chainId,
        contract: a.contract,
        day: a.day,
        tx_hash: a.txHash,
        block_number: a.blockNumber,
        block_hash: a.blockHash,
      }
    : null;
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
  return bundleOf(event, index, view, leaves, verifierKey);
}

type StoredEvent = Selectable<AuditEventsTable>;

function bundleOf(
  event: StoredEvent,
  index: number,
  view: AuditCheckpointView,
  leaves: readonly Uint8Array[],
  verifierKey: string,
): AuditProofBundle {
  return {
    format: AUDIT_PROOF_FORMAT,
    event: { id: Number(event.id), record: { ...auditRecordOf(event, event.salt) } },
    leaf_index: index,
    leaf_hash: event.leaf_hash,
    inclusion_proof: inclusionProof(NATIVE_RFC9162, leaves, index, view.size).map(toHex),
    checkpoint: view,
    verifier_key: verifierKey,
  };
}

/**
 * Proof bundles of several events at once (hipaa.evidence): each to the checkpoint {@link checkpointCovering}
 * picks, from one read of the leaves. An event no checkpoint covers yet maps to null. The caller has checked the
 * events are the caller's to see.
 */
export async function auditProofsFor(
  deps: ProofDeps,
  events: readonly StoredEvent[],
): Promise<Map<number, AuditProofBundle | null>> {
  const out = new Map<number, AuditProofBundle | null>();
  if (events.length === 0) return out;
  const verifierKey = verifierKeyOf(deps);
  const chosen = new Map<number, AuditCheckpointView | null>();
  const views = new Map<number, AuditCheckpointView>();
  for (const e of events) {
    const index = e.leaf_index === null ? null : Number(e.leaf_index);
    const row = index === null ? null : await checkpointCovering(deps.store, index);
    if (row && !views.has(Number(row.size))) views.set(Number(row.size), await viewOf(deps.store, row));
    chosen.set(Number(e.id), row ? views.get(Number(row.size))! : null);
  }
  const largest = Math.max(0, ...[...views.keys()]);
  const leaves = await readLeafHashes(deps.store.db, largest);
  for (const e of events) {
    const view = chosen.get(Number(e.id));
    out.set(Number(e.id), view ? bundleOf(e, Number(e.leaf_index), view, leaves, verifierKey) : null);
  }
  return out;
}

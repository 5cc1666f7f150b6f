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
import { eventsOfAccount } from "./event-owner.js";
import { readLeafHashes } from "./leaves.js";
import { NATIVE_RFC9162 } from "./native-hasher.js";

/**
 * What proofs are made from: the store (each checkpoint with the verifier key of the key that signed it), in a
 * process that signs checkpoints.
 */
export type ProofDeps = Pick<AppDeps, "store" | "auditLogKey">;

/** Checkpoints with their anchors, in one query (an anchor is null until anchoring reaches its checkpoint). */
const checkpointViews = (store: Store) =>
  store.db
    .selectFrom("audit_checkpoints as c")
    .leftJoin("audit_anchors as a", "a.size", "c.size")
    .leftJoin("audit_log_keys as k", "k.epoch", "c.key_epoch")
    .select([
      "k.verifier_key",
      "c.size",
      "c.root_hash",
      "c.note",
      "c.created_at",
      "a.state",
      "a.chain_id",
      "a.contract",
      "a.day",
      "a.tx_hash",
      "a.block_number",
      "a.block_hash",
    ]);

type CheckpointViewRow = Awaited<ReturnType<ReturnType<typeof checkpointViews>["execute"]>>[number];

function viewOf(row: CheckpointViewRow): AuditCheckpointView {
  const anchor: AuditAnchorView | null =
    row.state === null
      ? null
      : {
          state: row.state,
          chain_id: Number(row.chain_id),
          contract: row.contract!,
          day: Number(row.day),
          tx_hash: row.tx_hash,
          block_number: row.block_number === null ? null : Number(row.block_number),
          block_hash: row.block_hash,
        };
  return { size: Number(row.size), root_hash: row.root_hash, note: row.note, created_at: row.created_at, anchor };
}

/** A process that signs no checkpoints (the stdio MCP server) has no proofs to show. */
function assertSigns(deps: ProofDeps): void {
  if (!deps.auditLogKey) throw new ServiceError("not_found", "this process signs no audit checkpoints");
}

/** A checkpoint with the verifier key of the key that signed it (the log's keys change at a rotation). */
interface SignedView {
  readonly view: AuditCheckpointView;
  readonly verifierKey: string;
}

/** A checkpoint whose key is not among the log's keys (removed from the store) leads no proof: none could be checked. */
const signedViewsOf = (rows: readonly CheckpointViewRow[]): SignedView[] =>
  rows.flatMap((row) => (row.verifier_key === null ? [] : [{ view: viewOf(row), verifierKey: row.verifier_key }]));

/** The latest signed checkpoint, its anchor and the verifier key of the key that signed it. */
export async function latestCheckpoint(
  deps: ProofDeps,
): Promise<AuditCheckpointView & { readonly verifier_key: string }> {
  assertSigns(deps);
  const row = await checkpointViews(deps.store)
    .where("k.verifier_key", "is not", null)
    .orderBy("c.size", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row?.verifier_key)
    throw new ServiceError("not_checkpointed", "the audit log has no signed checkpoint yet", {
      retry: "checkpoints are signed every HCS_CHECKPOINT_INTERVAL_S seconds (default daily)",
    });
  return { ...viewOf(row), verifier_key: row.verifier_key };
}

/** Every checkpoint with its anchor, oldest first. */
export async function allCheckpointViews(store: Store): Promise<AuditCheckpointView[]> {
  return (await checkpointViews(store).orderBy("c.size").execute()).map(viewOf);
}

/** The latest checkpoints covering leaf `index` on (the candidates {@link checkpointFor} picks from), newest first. */
async function checkpointsCovering(store: Store, index: number): Promise<SignedView[]> {
  const rows = await checkpointViews(store).where("c.size", ">", index).orderBy("c.size", "desc").limit(32).execute();
  return signedViewsOf(rows);
}

/**
 * The checkpoint a proof for leaf `index` goes to: the latest one whose anchor is final and that covers the leaf,
 * else (anchoring not configured, or not final yet) the latest one that covers it; null when none does yet.
 */
function checkpointFor(candidates: readonly SignedView[], index: number): SignedView | null {
  const covering = candidates.filter((c) => c.view.size > index);
  return covering.find((c) => c.view.anchor?.state === "finalized") ?? covering[0] ?? null;
}

/**
 * An event's proof bundle, for an account whose event it is (audit/event-owner.ts: the events it made, and the
 * evidence events of its practices' scans): the record as hashed, its leaf and the inclusion proof to a signed
 * checkpoint. Any other event is `not_found`, as an unknown id is, never `forbidden`: nobody learns that someone
 * else's event exists.
 */
export async function auditProofFor(deps: ProofDeps, eventId: number, accountId: string): Promise<AuditProofBundle> {
  assertSigns(deps);
  const event = await deps.store.db
    .selectFrom("audit_entries")
    .selectAll()
    .where("id", "=", eventId)
    .executeTakeFirst();
  if (!event || !(await eventsOfAccount(deps.store.db, [event], accountId)).has(eventId))
    throw new ServiceError("not_found", "no such audit event of your account");
  if (event.leaf_index === null)
    throw new ServiceError("not_checkpointed", "the event is not in the log yet (it is sequenced within a second)", {
      event_id: eventId,
    });
  const index = Number(event.leaf_index);
  const signed = checkpointFor(await checkpointsCovering(deps.store, index), index);
  if (!signed)
    throw new ServiceError("not_checkpointed", "no signed checkpoint covers the event yet", {
      event_id: eventId,
      leaf_index: index,
      retry: "checkpoints are signed every HCS_CHECKPOINT_INTERVAL_S seconds (default daily)",
    });
  const leaves = await readLeafHashes(deps.store.db, signed.view.size);
  return bundleOf(event, index, signed, leaves);
}

type StoredEvent = Selectable<AuditEventsTable>;

function bundleOf(
  event: StoredEvent,
  index: number,
  { view, verifierKey }: SignedView,
  leaves: readonly Uint8Array[],
): AuditProofBundle {
  return {
    format: AUDIT_PROOF_FORMAT,
    event: { id: Number(event.id), record: { ...auditRecordOf(event, event.salt) } },
    leaf_index: index,
    leaf_hash: toHex(leaves[index]!),
    inclusion_proof: inclusionProof(NATIVE_RFC9162, leaves, index, view.size).map(toHex),
    checkpoint: view,
    verifier_key: verifierKey,
  };
}

/**
 * Proof bundles of several events at once (hipaa.evidence): each to the checkpoint {@link checkpointFor} picks,
 * from one read of the checkpoints and one of the leaves. An event no checkpoint covers yet maps to null. The caller has checked the
 * events are the caller's to see (audit/event-owner.ts).
 */
export async function auditProofsFor(
  deps: ProofDeps,
  events: readonly StoredEvent[],
): Promise<Map<number, AuditProofBundle | null>> {
  const out = new Map<number, AuditProofBundle | null>();
  if (events.length === 0) return out;
  assertSigns(deps);
  // One read of the candidate checkpoints (from the lowest leaf on) and one of the leaves, for all the events.
  const indexes = events.flatMap((e) => (e.leaf_index === null ? [] : [Number(e.leaf_index)]));
  const candidates = indexes.length === 0 ? [] : await checkpointsCovering(deps.store, Math.min(...indexes));
  const chosen = new Map(
    events.map((e) => [Number(e.id), e.leaf_index === null ? null : checkpointFor(candidates, Number(e.leaf_index))]),
  );
  const largest = Math.max(0, ...[...chosen.values()].map((v) => v?.view.size ?? 0));
  const leaves = await readLeafHashes(deps.store.db, largest);
  for (const e of events) {
    const signed = chosen.get(Number(e.id));
    out.set(Number(e.id), signed ? bundleOf(e, Number(e.leaf_index), signed, leaves) : null);
  }
  return out;
}

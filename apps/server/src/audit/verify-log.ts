import {
  type Ed25519Verify,
  equalBytes,
  fromHex,
  MerkleFrontier,
  type NoteVerifierKey,
  openNote,
  parseCheckpoint,
  verifyConsistency,
} from "@hcs/protocol";
import { auditLeafHash, auditRecordOf } from "../services/audit.js";
import type { Store } from "../store/store.js";
import { NATIVE_RFC9162 } from "./sequencer.js";

/** What is wrong, at the first place it shows. */
export type AuditLogProblemKind =
  /** An event's record no longer hashes to its leaf hash: a field was changed. */
  | "altered"
  /** No event holds this index (deleted), or the log ends before a size that was signed or recorded (truncated). */
  | "missing"
  /** The event at this index is not the one the sequencer put there (moved, inserted, or indexes renumbered). */
  | "moved"
  /** A checkpoint does not open with the log's key, or states another head than the one stored with it. */
  | "checkpoint_signature"
  /** A checkpoint is not consistent with the one before it. */
  | "checkpoint_consistency"
  /** The tree of the first `size` leaves does not have the head a signed checkpoint states. */
  | "checkpoint_head";

export interface AuditLogProblem {
  readonly kind: AuditLogProblemKind;
  /** The first leaf index the problem concerns (for a checkpoint: its size — the leaves it covers end there). */
  readonly index: number;
  readonly message: string;
}

export interface AuditLogVerdict {
  readonly ok: boolean;
  /** Leaves checked (recomputed and added to the tree). */
  readonly leaves: number;
  readonly checkpoints: number;
  /** Events not yet given a leaf index (they join the log at the next sequencer run; nothing to check yet). */
  readonly unsequenced: number;
  /** The first problem by index (null when none), and how many were found in all. */
  readonly firstProblem: AuditLogProblem | null;
  readonly problems: readonly AuditLogProblem[];
}

const PAGE = 5000;

interface JournalRun {
  readonly firstIndex: number;
  readonly firstId: number;
  readonly lastId: number;
}

/**
 * Checks the whole log in the store against itself and its signed checkpoints: every checkpoint opens with the
 * log's key and is consistent with the one before it; every event's record hashes to its leaf; indexes are gap-free
 * and each holds the event the sequencer's journal put there; the tree of the first `size` leaves has the head each
 * checkpoint signed. Reports the first problem by index. A tamperer who rewrites records, leaf hashes, indexes and
 * the journal consistently is still caught by the first signed head after the change, which bounds where it is.
 */
export async function verifyAuditLog(
  store: Store,
  key: NoteVerifierKey,
  verify: Ed25519Verify,
  onProgress?: (leaves: number, of: number) => void,
): Promise<AuditLogVerdict> {
  const problems: AuditLogProblem[] = [];
  const problem = (kind: AuditLogProblemKind, index: number, message: string) =>
    problems.push({ kind, index, message });
  const db = store.db;

  // Checkpoints: signatures and consistency, from the notes alone.
  const rows = await db
    .selectFrom("audit_checkpoints")
    .select(["size", "root_hash", "note", "consistency_from", "consistency_proof"])
    .orderBy("size")
    .execute();
  const signed: { size: number; root: Uint8Array }[] = [];
  for (const row of rows) {
    const size = Number(row.size);
    const opened = openNote(row.note, key, verify);
    const body = opened.ok ? parseCheckpoint(opened.text) : null;
    if (!opened.ok || !body || body.origin !== key.name) {
      problem("checkpoint_signature", size, `checkpoint ${size} does not open with the log's key`);
      continue;
    }
    if (body.size !== size || Buffer.from(body.rootHash).toString("hex") !== row.root_hash) {
      problem("checkpoint_signature", size, `checkpoint ${size}'s signed size or head differs from the stored one`);
      continue;
    }
    const previous = signed.at(-1);
    if (previous) {
      const proof = (JSON.parse(row.consistency_proof) as string[]).map((h) => fromHex(h) ?? new Uint8Array());
      const from = row.consistency_from === null ? null : Number(row.consistency_from);
      if (
        from !== previous.size ||
        !verifyConsistency(NATIVE_RFC9162, previous.size, size, proof, previous.root, body.rootHash)
      )
        problem(
          "checkpoint_consistency",
          previous.size,
          `checkpoint ${size} is not proved consistent with checkpoint ${previous.size}`,
        );
    }
    signed.push({ size, root: body.rootHash });
  }

  const state = await db.selectFrom("audit_log").select(["size", "root_hash"]).where("id", "=", 1).executeTakeFirst();
  const recordedSize = state ? Number(state.size) : 0;
  const journal: JournalRun[] = (
    await db.selectFrom("audit_sequence_runs").selectAll().orderBy("first_index").execute()
  ).map((r) => ({ firstIndex: Number(r.first_index), firstId: Number(r.first_id), lastId: Number(r.last_id) }));
  const unsequenced = Number(
    (
      await db
        .selectFrom("audit_events")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("leaf_index", "is", null)
        .executeTakeFirstOrThrow()
    ).n,
  );

  // Leaves, in index order, in pages.
  const expectedSize = Math.max(recordedSize, signed.at(-1)?.size ?? 0);
  const frontier = new MerkleFrontier(NATIVE_RFC9162);
  let next = 0;
  let run = 0;
  let nextCheckpoint = 0;
  let broken = false;
  for (;;) {
    const page = await db
      .selectFrom("audit_events")
      .selectAll()
      .where("leaf_index", ">=", next)
      .orderBy("leaf_index")
      .limit(PAGE)
      .execute();
    if (page.length === 0) break;
    for (const event of page) {
      const index = Number(event.leaf_index);
      if (!broken && index !== next) {
        problem("missing", next, `no event holds leaf index ${next} (the next one holds ${index}): deleted`);
        broken = true;
      }
      // The journal says which event id the sequencer gave this index.
      while (run < journal.length - 1 && journal[run + 1]!.firstIndex <= index) run++;
      const j = journal[run];
      const expectedId = j && index >= j.firstIndex ? j.firstId + (index - j.firstIndex) : null;
      if (!broken && (expectedId === null || expectedId > j!.lastId || expectedId !== Number(event.id))) {
        problem("moved", index, `leaf ${index} holds event ${event.id}; the sequencer put event ${expectedId} there`);
        broken = true;
      }
      const leaf = auditLeafHash(auditRecordOf(event, event.salt));
      if (!broken && leaf !== event.leaf_hash) {
        problem(
          "altered",
          index,
          `event ${event.id} at leaf ${index} was altered: its record no longer hashes to its leaf`,
        );
        broken = true;
      }
      frontier.append(Buffer.from(leaf, "hex"));
      next = index + 1;
      while (nextCheckpoint < signed.length && signed[nextCheckpoint]!.size <= frontier.size) {
        const cp = signed[nextCheckpoint++]!;
        if (cp.size === frontier.size && !equalBytes(frontier.root(), cp.root) && !broken) {
          const from = signed[nextCheckpoint - 2]?.size ?? 0;
          problem(
            "checkpoint_head",
            from,
            `the first ${cp.size} leaves do not have the head checkpoint ${cp.size} signed: a change among leaves ${from}–${cp.size - 1}`,
          );
          broken = true;
        }
      }
    }
    onProgress?.(frontier.size, expectedSize);
  }
  if (frontier.size < expectedSize && !broken)
    problem(
      "missing",
      frontier.size,
      `the log ends at ${frontier.size} leaves; ${expectedSize} were ${recordedSize === expectedSize ? "recorded" : "signed"}: truncated`,
    );
  problems.sort((a, b) => a.index - b.index);
  return {
    ok: problems.length === 0,
    leaves: frontier.size,
    checkpoints: signed.length,
    unsequenced,
    firstProblem: problems[0] ?? null,
    problems,
  };
}

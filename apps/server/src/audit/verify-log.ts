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
import type { Store } from "../store/store.js";
import { startWorkerThread } from "../util/worker-thread.js";
import { trustKeyChain } from "./key-chain.js";
import { readLogKeyChain } from "./log-keys.js";
import { logReaderFor } from "./log-pages.js";
import { NATIVE_RFC9162 } from "./native-hasher.js";
import { type JournalRun, type RangeResult, verifyRange } from "./verify-range.js";
import { combinePieces, type Piece, PieceQueue, planPieces } from "./verify-split.js";

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
  /** A key rotation's handover is not signed by both keys it names (a forged or broken rotation). */
  | "key_rotation"
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
  /** The log's keys the trusted key led to (1 without rotations), and the rotations whose handover verified. */
  readonly keys: number;
  readonly rotations: number;
  /** Pieces of the log that were verified in a worker thread (see VerifyOptions.threads). */
  readonly rangesInWorkers: number;
  /** Events not yet given a leaf index (they join the log at the next sequencer run; nothing to check yet). */
  readonly unsequenced: number;
  /** The first problem by index (null when none), and how many were found in all. */
  readonly firstProblem: AuditLogProblem | null;
  readonly problems: readonly AuditLogProblem[];
}

/** The empty tree's state (a key handed over before the first event states its head, SHA-256 of nothing). */
const EMPTY_TREE = { size: 0, peaks: [] };

/** Below this many leaves a log is verified in one range (a worker thread costs more than it saves). */
const PARALLEL_MIN = 65_536;

export interface VerifyOptions {
  /** Told how many leaves are checked, of how many, as pages are read. */
  readonly onProgress?: (leaves: number, of: number) => void;
  /** 1: everything in this thread; 2 (default): a large log on the embedded store shared with a worker thread. */
  readonly threads?: 1 | 2;
  /** Logs at least this large are verified by two threads (default 65,536; tests lower it). */
  readonly parallelFrom?: number;
  /**
   * Tests: the worker thread always verifies the first piece — the verifying thread waits for it to start rather
   * than taking it (what it does when the worker thread is slow to start), so a small log still crosses threads.
   */
  readonly waitForWorker?: boolean;
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
  options: VerifyOptions = {},
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
  // The log's keys: from the trusted one, along the rotations whose handovers verify (key-chain.ts).
  const trust = trustKeyChain(await readLogKeyChain(db), key, verify);
  for (const p of trust.problems) problem("key_rotation", p.index, p.message);
  const signed: { size: number; root: Uint8Array }[] = [];
  for (const row of rows) {
    const size = Number(row.size);
    let opened: ReturnType<typeof openNote> = { ok: false, reason: "unsigned" };
    for (const span of trust.spans) {
      if (size < span.from || size > span.to) continue;
      opened = openNote(row.note, span.key, verify);
      if (opened.ok) break;
    }
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
  // The sequencer's journal. On the embedded store without its leaf hashes (32 bytes a leaf: 32 MB for a million,
  // ~35 ms to read and hand to a worker thread before anything else could start): each thread reads those of the runs
  // its pieces reach, over its own connection (JournalRun).
  const runs = db
    .selectFrom("audit_sequence_runs")
    .select(["first_index", "first_id", "last_id"])
    .orderBy("first_index");
  const journal: JournalRun[] =
    store.file !== undefined
      ? (await runs.execute()).map((r) => ({
          firstIndex: Number(r.first_index),
          firstId: Number(r.first_id),
          lastId: Number(r.last_id),
        }))
      : (await runs.select("leaf_hashes").execute()).map((r) => ({
          firstIndex: Number(r.first_index),
          firstId: Number(r.first_id),
          lastId: Number(r.last_id),
          leafHashes: r.leaf_hashes,
        }));
  // No event in two runs. On SQLite, whose one writer hands ids out in commit order, runs in index order hold
  // ascending ids (the earlier run of a pair out of order is the one moved or inserted there); on PostgreSQL events
  // commit out of id order, so runs must only not overlap (and each event's mark is checked against its index).
  const inCommitOrder = store.audit.idsInCommitOrder;
  const ordered = inCommitOrder ? journal : [...journal].sort((a, b) => a.firstId - b.firstId);
  for (let i = 1; i < ordered.length; i++) {
    const [a, b] = [ordered[i - 1]!, ordered[i]!];
    if (b.firstId <= a.lastId) {
      const moved = inCommitOrder ? a : a.firstIndex > b.firstIndex ? a : b;
      problem(
        "moved",
        moved.firstIndex,
        `the run from leaf ${moved.firstIndex} is out of the order events were logged`,
      );
      break;
    }
  }
  // Events waiting for a leaf (they join the log at the next sequencer run), counted without reading the log: on
  // SQLite those above the last id journaled (ids are handed out in commit order; a rowid range), on PostgreSQL the
  // unmarked ones (its partial index). Counting every event was a scan of the whole table.
  const lastJournaled = journal.reduce((max, r) => Math.max(max, r.lastId), 0);
  const waiting = db.selectFrom("audit_events").select((eb) => eb.fn.countAll<number | string>().as("n"));
  const unsequenced = Number(
    (
      await (inCommitOrder
        ? waiting.where("id", ">", lastJournaled)
        : waiting.where("leaf_index", "is", null)
      ).executeTakeFirstOrThrow()
    ).n,
  );

  // Leaves, in index order: on the embedded store, a large log in pieces — aligned perfect subtrees — that a worker
  // thread takes from the front of a shared queue and this thread from the back (verify-split.ts), each with its own
  // connection; their trees combine into the whole tree's. Elsewhere, in one piece here.
  // The signed heads to hold the tree to: the checkpoints', and those the verified key handovers state.
  const heads = [...signed, ...trust.heads].sort((a, b) => a.size - b.size);
  const expectedSize = Math.max(recordedSize, heads.at(-1)?.size ?? 0);
  const sizes = [...new Set(heads.map((h) => h.size).filter((s) => s > 0))];
  const here = logReaderFor(store);
  const parallel =
    (options.threads ?? 2) > 1 &&
    store.file !== undefined &&
    expectedSize >= (options.parallelFrom ?? PARALLEL_MIN) &&
    expectedSize > 1;
  const pieces: Piece[] = parallel ? planPieces(expectedSize, sizes) : [{ from: 0, to: null, sizes }];
  const results: (RangeResult | undefined)[] = new Array(pieces.length);
  const done = pieces.map(() => 0);
  let doneTotal = 0;
  const report = (piece: number, end: number) => {
    doneTotal += end - pieces[piece]!.from - done[piece]!;
    done[piece] = end - pieces[piece]!.from;
    options.onProgress?.(doneTotal, expectedSize);
  };
  const verifyHere = async (piece: number) => {
    results[piece] = await verifyRange(here, { ...pieces[piece]!, journal }, (end) => report(piece, end));
  };
  let inWorkers = 0;
  try {
    if (!parallel) await verifyHere(0);
    else {
      const queue = PieceQueue.create(pieces.length, true);
      let onResult = () => {};
      const worker = verifyPiecesInWorker(store.file!, journal, pieces, queue, (piece, m) => {
        if (m.result) {
          results[piece] = m.result;
          inWorkers++;
          onResult();
        } else if (m.progress !== undefined) report(piece, m.progress);
      });
      const claims = new PieceQueue(queue);
      for (let piece = claims.takeBack(); piece >= 0; piece = claims.takeBack()) await verifyHere(piece);
      // All taken. A worker thread that has not started yet (a busy machine) will find nothing: its held-back piece
      // is verified here and the thread stopped, rather than waited for.
      if (!options.waitForWorker && claims.stealHeldBack()) {
        void worker.stop();
        await verifyHere(0);
      }
      // Every piece's result in, or the worker thread ended. Its exit is not waited for once every result is in
      // (closing its connection, which unmaps the file, and ending the thread took ~20 ms). A worker that could not
      // start or stopped (an unusual runtime): what it did not finish is verified here.
      const ended = worker.done.catch(() => {});
      const allIn = new Promise<void>((resolve) => {
        onResult = () => {
          if (results.filter(Boolean).length === pieces.length) resolve();
        };
        onResult();
      });
      await Promise.race([allIn, ended]);
      for (const [piece, result] of results.entries()) if (!result) await verifyHere(piece);
    }
  } finally {
    here.close();
  }
  const combined = combinePieces(pieces, results as RangeResult[]);
  const leafProblem = combined.problem;
  if (leafProblem) problem(leafProblem.kind, leafProblem.index, leafProblem.message);
  const leaves = combined.leaves;

  // Each signed head against the tree of that many leaves, up to the first leaf problem.
  const stateAt = (size: number) => combined.stateAt(size);
  for (const [i, cp] of heads.entries()) {
    if (leafProblem && cp.size > leafProblem.index) break;
    const state = cp.size === 0 ? EMPTY_TREE : stateAt(cp.size);
    if (!state) break;
    if (!equalBytes(MerkleFrontier.restore(NATIVE_RFC9162, state).root(), cp.root)) {
      const from = heads.slice(0, i).findLast((h) => h.size < cp.size)?.size ?? 0;
      problem(
        "checkpoint_head",
        from,
        `the first ${cp.size} leaves do not have the head signed at size ${cp.size}: a change among leaves ${from}–${cp.size - 1}`,
      );
      break;
    }
  }
  if (!leafProblem && leaves < expectedSize)
    problem(
      "missing",
      leaves,
      `the log ends at ${leaves} leaves; ${expectedSize} were ${recordedSize === expectedSize ? "recorded" : "signed"}: truncated`,
    );
  problems.sort((a, b) => a.index - b.index);
  return {
    ok: problems.length === 0,
    leaves,
    checkpoints: signed.length,
    keys: trust.spans.length,
    rotations: trust.heads.length,
    unsequenced,
    rangesInWorkers: inWorkers,
    firstProblem: problems[0] ?? null,
    problems,
  };
}

/** Runs a worker thread over its own read-only connection to `file`, taking pieces from the queue's front. */
function verifyPiecesInWorker(
  file: string,
  journal: readonly JournalRun[],
  pieces: readonly Piece[],
  queue: SharedArrayBuffer,
  onMessage: (piece: number, m: { progress?: number; result?: RangeResult }) => void,
): { done: Promise<void>; stop(): Promise<number> } {
  const worker = startWorkerThread(new URL("./verify-worker", import.meta.url), { file, journal, pieces, queue });
  let stopped = false;
  const done = new Promise<void>((resolve, reject) => {
    worker.on("message", (m: { piece: number; progress?: number; result?: RangeResult }) => onMessage(m.piece, m));
    worker.on("error", reject);
    worker.on("exit", (code) =>
      code === 0 || stopped ? resolve() : reject(new Error(`the verifier's worker thread exited with code ${code}`)),
    );
  });
  return {
    done,
    stop() {
      stopped = true;
      return worker.terminate();
    },
  };
}

import {
  type Ed25519Verify,
  equalBytes,
  type FrontierState,
  fromHex,
  MerkleFrontier,
  type NoteVerifierKey,
  openNote,
  parseCheckpoint,
  splitPoint,
  verifyConsistency,
} from "@hcs/protocol";
import type { Store } from "../store/store.js";
import { logReaderFor } from "./log-pages.js";
import { NATIVE_RFC9162 } from "./native-hasher.js";
import { type JournalRun, type RangeResult, type RangeTask, verifyRange } from "./verify-range.js";
import { startAuditWorker } from "./worker-thread.js";

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
  /** Ranges of the log that were verified in worker threads (see VerifyOptions.threads). */
  readonly rangesInWorkers: number;
  /** Events not yet given a leaf index (they join the log at the next sequencer run; nothing to check yet). */
  readonly unsequenced: number;
  /** The first problem by index (null when none), and how many were found in all. */
  readonly firstProblem: AuditLogProblem | null;
  readonly problems: readonly AuditLogProblem[];
}

/** Below this many leaves a log is verified in one range (a worker thread costs more than it saves). */
const PARALLEL_MIN = 65_536;

export interface VerifyOptions {
  /** Told how many leaves are checked, of how many, as pages are read. */
  readonly onProgress?: (leaves: number, of: number) => void;
  /** 1: everything in this thread; 2 (default): a large log on the embedded store in two ranges at once. */
  readonly threads?: 1 | 2;
  /** Logs at least this large are verified in two ranges (default 65,536; tests lower it). */
  readonly parallelFrom?: number;
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
  ).map((r) => ({
    firstIndex: Number(r.first_index),
    firstId: Number(r.first_id),
    lastId: Number(r.last_id),
    leafHashes: r.leaf_hashes,
  }));
  // No event in two runs. On SQLite, whose one writer hands ids out in commit order, runs in index order hold
  // ascending ids (the earlier run of a pair out of order is the one moved or inserted there); on PostgreSQL events
  // commit out of id order, so runs must only not overlap (and each event's mark is checked against its index).
  const ordered = store.engine === "sqlite" ? journal : [...journal].sort((a, b) => a.firstId - b.firstId);
  for (let i = 1; i < ordered.length; i++) {
    const [a, b] = [ordered[i - 1]!, ordered[i]!];
    if (b.firstId <= a.lastId) {
      const moved = store.engine === "sqlite" ? a : a.firstIndex > b.firstIndex ? a : b;
      problem(
        "moved",
        moved.firstIndex,
        `the run from leaf ${moved.firstIndex} is out of the order events were logged`,
      );
      break;
    }
  }
  // Events not in any run yet (they join the log at the next sequencer run).
  const events = Number(
    (
      await db
        .selectFrom("audit_events")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const unsequenced = Math.max(0, events - journal.reduce((n, r) => n + (r.lastId - r.firstId + 1), 0));

  // Leaves, in index order: on the embedded store, a large log in two ranges at once — the left perfect subtree
  // (RFC 9162's split point) in a worker thread, the rest here — whose frontiers combine into the whole tree's.
  const expectedSize = Math.max(recordedSize, signed.at(-1)?.size ?? 0);
  const sizes = signed.map((c) => c.size);
  const here = logReaderFor(store);
  const parallel =
    (options.threads ?? 2) > 1 &&
    store.file !== undefined &&
    expectedSize >= (options.parallelFrom ?? PARALLEL_MIN) &&
    expectedSize > 1;
  const split = parallel ? splitPoint(expectedSize) : 0;
  const done = [0, 0];
  const report = (part: number, end: number) => {
    done[part] = end - (part === 0 ? 0 : split);
    options.onProgress?.(done[0]! + done[1]!, expectedSize);
  };
  const tasks: RangeTask[] = parallel
    ? [
        {
          from: 0,
          to: split,
          journal: journal.filter((r) => r.firstIndex < split),
          sizes: sizes.filter((x) => x <= split),
        },
        { from: split, to: null, journal, sizes: sizes.filter((x) => x > split) },
      ]
    : [{ from: 0, to: null, journal, sizes }];
  let inWorkers = 0;
  const results = await Promise.all(
    tasks.map((task, part) =>
      parallel && part === 0
        ? verifyRangeInWorker(store.file!, task, (end) => report(part, end)).then(
            (r) => {
              inWorkers++;
              return r;
            },
            // A worker that cannot start (an unusual runtime): the range is verified here instead.
            () => verifyRange(here, task, (end) => report(part, end)),
          )
        : verifyRange(here, task, (end) => report(part, end)),
    ),
  ).finally(() => here.close());

  // The first leaf problem; a range that stopped short of its end without one is missing its next index.
  const left = results[0]!;
  const leafProblem =
    [
      left.problem ??
        (parallel && left.end < split
          ? { kind: "missing" as const, index: left.end, message: `no event holds leaf index ${left.end}: deleted` }
          : null),
      results[1]?.problem ?? null,
    ].find((p) => p !== null) ?? null;
  if (leafProblem) problem(leafProblem.kind, leafProblem.index, leafProblem.message);
  const leaves = parallel && left.end === split ? results[1]!.end : left.end;

  // Each signed head against the tree of that many leaves, up to the first leaf problem.
  const stateAt = (size: number): FrontierState | null => {
    if (!parallel || size <= split) return left.states.find((x) => x.size === size)?.state ?? null;
    const right = results[1]!.states.find((x) => x.size === size)?.state;
    if (!right || left.final.size !== split) return null;
    return { size, peaks: [...left.final.peaks, ...right.peaks] };
  };
  for (const [i, cp] of signed.entries()) {
    if (leafProblem && cp.size > leafProblem.index) break;
    const state = stateAt(cp.size);
    if (!state) break;
    if (!equalBytes(MerkleFrontier.restore(NATIVE_RFC9162, state).root(), cp.root)) {
      const from = signed[i - 1]?.size ?? 0;
      problem(
        "checkpoint_head",
        from,
        `the first ${cp.size} leaves do not have the head checkpoint ${cp.size} signed: a change among leaves ${from}–${cp.size - 1}`,
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
    unsequenced,
    rangesInWorkers: inWorkers,
    firstProblem: problems[0] ?? null,
    problems,
  };
}

/** Runs one range in a worker thread over its own read-only connection to `file`. */
function verifyRangeInWorker(file: string, task: RangeTask, onProgress: (end: number) => void): Promise<RangeResult> {
  const worker = startAuditWorker("verify-worker", { file, task });
  return new Promise((resolve, reject) => {
    let result: RangeResult | null = null;
    worker.on("message", (m: { progress?: number; result?: RangeResult }) => {
      if (m.result) result = m.result;
      else if (m.progress !== undefined) onProgress(m.progress);
    });
    worker.on("error", reject);
    worker.on("exit", (code) =>
      result ? resolve(result) : reject(new Error(`the verifier's worker thread exited (${code}) without a result`)),
    );
  });
}

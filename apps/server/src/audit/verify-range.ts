import { hash } from "node:crypto";
import { type FrontierState, HASH_BYTES, MerkleFrontier } from "@hcs/protocol";
import type { LogReader } from "./log-pages.js";
import { NATIVE_RFC9162 } from "./native-hasher.js";

/**
 * A run of consecutive event ids the sequencer gave consecutive leaf indexes (its journal, audit_sequence_runs), with
 * the leaves' hashes it appended to the tree, 32 bytes each (null or short: damaged).
 */
export interface JournalRun {
  readonly firstIndex: number;
  readonly firstId: number;
  readonly lastId: number;
  readonly leafHashes: Uint8Array | null;
}

/** A problem with one leaf: what `audit verify` names (see verify-log.ts). */
export interface LeafProblem {
  readonly kind: "missing" | "moved" | "altered";
  readonly index: number;
  readonly message: string;
}

export interface RangeTask {
  /** First leaf index of the range; the range's tree starts empty there (a multiple of a power of two ≥ its length). */
  readonly from: number;
  /** One past the last index to read; null: to the end of the log. */
  readonly to: number | null;
  /** The journal's runs in index order (those overlapping the range suffice). */
  readonly journal: readonly JournalRun[];
  /** Log sizes (absolute, within (from, to]) at which to report the range's frontier: the checkpoints' sizes. */
  readonly sizes: readonly number[];
}

export interface RangeResult {
  /** One past the last leaf read (from when none was). */
  readonly end: number;
  /** The first problem in the range (checks stop at it; the range's tree is then meaningless). */
  readonly problem: LeafProblem | null;
  /** The range's own frontier at each requested size it reached, and at its end. */
  readonly states: readonly { readonly size: number; readonly state: FrontierState }[];
  readonly final: FrontierState;
}

const PAGE = 5000;

/**
 * Checks the leaves of one range of the log, in index order, run by run of the sequencer's journal: the runs tile the
 * indexes without gap or overlap; each index holds the event the run says (its first id plus the offset) and that
 * event is there; each record hashes to the leaf the run appended to the tree; and builds the range's tree. Runs in
 * the verifying process or in a worker thread (verify-worker.ts) with its own connection to the store.
 */
export async function verifyRange(
  reader: LogReader,
  task: RangeTask,
  onPage?: (end: number) => void,
): Promise<RangeResult> {
  const frontier = new MerkleFrontier(NATIVE_RFC9162);
  const states: { size: number; state: FrontierState }[] = [];
  let problem: LeafProblem | null = null;
  let next = task.from;
  let wanted = 0;
  const leafAdded = (leaf: Uint8Array) => {
    frontier.append(leaf);
    next++;
    while (wanted < task.sizes.length && task.sizes[wanted]! <= next) {
      if (task.sizes[wanted] === next) states.push({ size: next, state: frontier.toJSON() });
      wanted++;
    }
  };
  for (const run of task.journal) {
    const count = run.lastId - run.firstId + 1;
    const runEnd = run.firstIndex + count;
    if (runEnd <= task.from) continue;
    if (task.to !== null && run.firstIndex >= task.to) break;
    if (run.firstIndex > next) {
      problem = { kind: "missing", index: next, message: `no run of the journal holds leaf index ${next}: deleted` };
      break;
    }
    if (run.firstIndex < next && run.firstIndex >= task.from) {
      problem = {
        kind: "moved",
        index: run.firstIndex,
        message: `the run of events ${run.firstId}–${run.lastId} claims leaf ${run.firstIndex}, already held`,
      };
      break;
    }
    const hashes = run.leafHashes;
    if (!hashes || hashes.length !== count * HASH_BYTES) {
      problem = {
        kind: "altered",
        index: next,
        message: `the leaves of the run from leaf ${run.firstIndex} were altered (${hashes?.length ?? 0} bytes for ${count} leaves)`,
      };
      break;
    }
    const stop = task.to === null ? runEnd : Math.min(runEnd, task.to);
    while (problem === null && next < stop) {
      const fromId = run.firstId + (next - run.firstIndex);
      const lastId = run.firstId + (stop - 1 - run.firstIndex);
      const page = await reader.read(fromId, lastId, Math.min(PAGE, stop - next));
      for (const event of page) {
        const expectedId = run.firstId + (next - run.firstIndex);
        if (event.id !== expectedId) {
          problem = {
            kind: "missing",
            index: next,
            message: `event ${expectedId} at leaf ${next} is gone (the next one read is ${event.id}): deleted`,
          };
          break;
        }
        if (event.mark !== undefined && event.mark !== next) {
          problem = {
            kind: "moved",
            index: next,
            message: `leaf ${next} holds event ${event.id}, which the sequencer marked with index ${event.mark}`,
          };
          break;
        }
        const leaf = hash("sha256", event.leafInput, "buffer");
        const at = (next - run.firstIndex) * HASH_BYTES;
        if (!leaf.equals(hashes.subarray(at, at + HASH_BYTES))) {
          problem = {
            kind: "altered",
            index: next,
            message: `event ${event.id} at leaf ${next} was altered: its record no longer hashes to its leaf`,
          };
          break;
        }
        leafAdded(leaf);
      }
      if (problem === null && page.length === 0)
        problem = {
          kind: "missing",
          index: next,
          message: `event ${fromId} at leaf ${next} is gone: deleted`,
        };
      onPage?.(next);
    }
    if (problem) break;
  }
  return { end: next, problem, states, final: frontier.toJSON() };
}

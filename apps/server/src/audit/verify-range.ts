import { hash } from "node:crypto";
import { type FrontierState, MerkleFrontier } from "@hcs/protocol";
import type { LogReader } from "./log-pages.js";
import { NATIVE_RFC9162 } from "./native-hasher.js";

/** A run of consecutive event ids the sequencer gave consecutive leaf indexes (its journal, audit_sequence_runs). */
export interface JournalRun {
  readonly firstIndex: number;
  readonly firstId: number;
  readonly lastId: number;
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
 * Checks the leaves of one range of the log, in index order: gap-free indexes, each holding the event the journal
 * says the sequencer put there, each record hashing to its stored leaf hash; and builds the range's tree. Runs in
 * the verifying process or in a worker thread (verify-worker.ts) with its own connection to the store.
 */
export async function verifyRange(
  reader: LogReader,
  task: RangeTask,
  onPage?: (end: number) => void,
): Promise<RangeResult> {
  const frontier = new MerkleFrontier(NATIVE_RFC9162);
  const states: { size: number; state: FrontierState }[] = [];
  const journal = task.journal;
  let problem: LeafProblem | null = null;
  let next = task.from;
  let run = 0;
  let wanted = 0;
  while (problem === null && (task.to === null || next < task.to)) {
    const limit = task.to === null ? PAGE : Math.min(PAGE, task.to - next);
    const page = await reader.read(next, limit);
    if (page.length === 0) break;
    for (const event of page) {
      const index = event.leafIndex;
      if (task.to !== null && index >= task.to) break;
      if (index !== next) {
        problem = {
          kind: "missing",
          index: next,
          message: `no event holds leaf index ${next} (the next one holds ${index}): deleted`,
        };
        break;
      }
      while (run < journal.length - 1 && journal[run + 1]!.firstIndex <= index) run++;
      const j = journal[run];
      const expectedId = j && index >= j.firstIndex ? j.firstId + (index - j.firstIndex) : null;
      if (expectedId === null || expectedId > j!.lastId || expectedId !== event.id) {
        problem = {
          kind: "moved",
          index,
          message: `leaf ${index} holds event ${event.id}; the sequencer put event ${expectedId} there`,
        };
        break;
      }
      const leaf = hash("sha256", event.leafInput, "buffer");
      if (!leaf.equals(event.leafHash)) {
        problem = {
          kind: "altered",
          index,
          message: `event ${event.id} at leaf ${index} was altered: its record no longer hashes to its leaf`,
        };
        break;
      }
      frontier.append(leaf);
      next = index + 1;
      while (wanted < task.sizes.length && task.sizes[wanted]! <= next) {
        if (task.sizes[wanted] === next) states.push({ size: next, state: frontier.toJSON() });
        wanted++;
      }
    }
    onPage?.(next);
  }
  return { end: next, problem, states, final: frontier.toJSON() };
}

import type { FrontierState } from "@hcs/protocol";
import type { LogPage, LogReader } from "./log-page.js";
import { HASH_BYTES, VerifierFrontier } from "./verify-tree.js";

/**
 * A run of consecutive event ids the sequencer gave consecutive leaf indexes (its journal, audit_sequence_runs), with
 * the leaves' hashes it appended to the tree, 32 bytes each (null or short: damaged). Absent: the range's reader reads
 * them when the range reaches the run ({@link LogReader.runLeafHashes}; on the embedded store each thread reads the
 * runs of its own pieces, instead of the verifying thread reading all 32 MB of a million leaves before anything else).
 */
export interface JournalRun {
  readonly firstIndex: number;
  readonly firstId: number;
  readonly lastId: number;
  readonly leafHashes?: Uint8Array | null;
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

/** One page to read: `count` events from `fromId`, at leaf `index`, of `run`. */
interface PageRead {
  readonly run: JournalRun;
  readonly index: number;
  readonly fromId: number;
  readonly count: number;
}

/**
 * The pages a range reads, in index order, run by run of the sequencer's journal, up to the first problem the journal
 * itself shows: the runs must tile the indexes without gap or overlap. (A problem the events show — one gone,
 * altered or mis-marked — or a run without 32 bytes a leaf comes before it when at a lower index; see verifyRange.)
 */
function planPages(task: RangeTask): { pages: PageRead[]; problem: LeafProblem | null } {
  const pages: PageRead[] = [];
  let next = task.from;
  for (const run of task.journal) {
    const count = run.lastId - run.firstId + 1;
    const runEnd = run.firstIndex + count;
    if (runEnd <= task.from) continue;
    if (task.to !== null && run.firstIndex >= task.to) break;
    if (run.firstIndex > next)
      return {
        pages,
        problem: { kind: "missing", index: next, message: `no run of the journal holds leaf index ${next}: deleted` },
      };
    if (run.firstIndex < next && run.firstIndex >= task.from)
      return {
        pages,
        problem: {
          kind: "moved",
          index: run.firstIndex,
          message: `the run of events ${run.firstId}–${run.lastId} claims leaf ${run.firstIndex}, already held`,
        },
      };
    const stop = task.to === null ? runEnd : Math.min(runEnd, task.to);
    for (; next < stop; next += Math.min(PAGE, stop - next))
      pages.push({
        run,
        index: next,
        fromId: run.firstId + (next - run.firstIndex),
        count: Math.min(PAGE, stop - next),
      });
  }
  return { pages, problem: null };
}

/**
 * The leaf hashes the journal holds for `count` leaves of a run from its `offset`-th, as latin1, and how many bytes of
 * leaves the run stores in all (0: none, or no such run). From the run itself when the journal came with them,
 * else read by the range's reader (only the part this range checks: a run can span several pieces).
 */
function journaledLeaves(
  reader: LogReader,
  run: JournalRun,
  offset: number,
  count: number,
): { stored: number; leaves: string } {
  const part = (bytes: Uint8Array, from: number, to: number) =>
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1", from, to);
  if (run.leafHashes !== undefined) {
    const all = run.leafHashes ?? new Uint8Array();
    return { stored: all.length, leaves: part(all, offset * HASH_BYTES, (offset + count) * HASH_BYTES) };
  }
  if (!reader.runLeafHashes) throw new Error(`the journal's run from leaf ${run.firstIndex} came without its leaves`);
  const read = reader.runLeafHashes(run.firstIndex, offset * HASH_BYTES, count * HASH_BYTES);
  return read ? { stored: read.stored, leaves: part(read.bytes, 0, read.bytes.length) } : { stored: 0, leaves: "" };
}

/**
 * Checks the leaves of one range of the log, in index order, run by run of the sequencer's journal: the runs tile the
 * indexes without gap or overlap; each index holds the event the run says (its first id plus the offset) and that
 * event is there (and, where the store keeps marks, is marked with that index); each record hashes to the leaf the
 * run appended to the tree; and builds the range's tree. Runs in the verifying process or in a worker thread
 * (verify-worker.ts) with its own connection to the store. Up to `reader.inFlight` pages are asked for at once.
 */
export async function verifyRange(
  reader: LogReader,
  task: RangeTask,
  onPage?: (end: number) => void,
): Promise<RangeResult> {
  const frontier = new VerifierFrontier();
  const states: { size: number; state: FrontierState }[] = [];
  const plan = planPages(task);
  let problem: LeafProblem | null = null;
  let next = task.from;
  let wanted = 0;
  const asked: (Promise<LogPage> | LogPage)[] = [];
  const ask = (p: number) => {
    const page = plan.pages[p];
    if (!page) return;
    const read = reader.read(page.fromId, page.count, page.index);
    // A page asked for ahead and never awaited (a problem came first) must not fail unhandled.
    if (read instanceof Promise) read.catch(() => {});
    asked[p] = read;
  };
  for (let p = 0; p < Math.min(reader.inFlight, plan.pages.length); p++) ask(p);
  // The current run's leaves in this range as one latin1 string (from leaf index `leavesFrom`): each recomputed leaf
  // is compared in place, without a copy.
  let leavesOf: JournalRun | null = null;
  let leaves = "";
  let leavesFrom = 0;
  for (let p = 0; p < plan.pages.length && problem === null; p++) {
    const { run, fromId, count } = plan.pages[p]!;
    if (run !== leavesOf) {
      const leafCount = run.lastId - run.firstId + 1;
      const upTo = Math.min(run.firstIndex + leafCount, task.to ?? Number.POSITIVE_INFINITY);
      const journaled = journaledLeaves(reader, run, next - run.firstIndex, upTo - next);
      if (journaled.stored !== leafCount * HASH_BYTES) {
        problem = {
          kind: "altered",
          index: next,
          message: `the leaves of the run from leaf ${run.firstIndex} were altered (${journaled.stored} bytes for ${leafCount} leaves)`,
        };
        break;
      }
      leavesOf = run;
      leaves = journaled.leaves;
      leavesFrom = next;
    }
    const page = await asked[p]!;
    asked[p] = undefined as never;
    ask(p + reader.inFlight);
    const bad = page.badMark ? page.badMark.at : -1;
    // The next size at which the range's frontier is wanted (a checkpoint's), or never on this page.
    let stateAt = wanted < task.sizes.length ? task.sizes[wanted]! : -1;
    for (let i = 0; i < page.held; i++) {
      if (i === bad) {
        problem = {
          kind: "moved",
          index: next,
          message: `leaf ${next} holds event ${fromId + i}, which the sequencer marked with index ${page.badMark!.mark}`,
        };
        break;
      }
      const leaf = page.leafHash(i);
      if (!leaves.startsWith(leaf, (next - leavesFrom) * HASH_BYTES)) {
        problem = {
          kind: "altered",
          index: next,
          message: `event ${fromId + i} at leaf ${next} was altered: its record no longer hashes to its leaf`,
        };
        break;
      }
      frontier.append(leaf);
      next++;
      while (stateAt !== -1 && stateAt <= next) {
        if (stateAt === next) states.push({ size: next, state: frontier.toJSON() });
        wanted++;
        stateAt = wanted < task.sizes.length ? task.sizes[wanted]! : -1;
      }
    }
    if (problem === null && page.held < count) {
      const gone = fromId + page.held;
      problem = {
        kind: "missing",
        index: next,
        message: `event ${gone} at leaf ${next} is gone${page.nextId ? ` (the next one read is ${page.nextId})` : ""}: deleted`,
      };
    }
    onPage?.(next);
  }
  problem ??= plan.problem;
  return { end: next, problem, states, final: frontier.toJSON() };
}

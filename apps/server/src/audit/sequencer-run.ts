import { hash } from "node:crypto";
import { type FrontierState, HASH_BYTES, MerkleFrontier, toHex } from "@hcs/protocol/schema-free";
import { NATIVE_RFC9162 } from "./native-hasher.js";

/** The log's state as audit_log stores it between runs. */
export interface LogState {
  readonly size: number;
  /** MerkleFrontier state, as stored (JSON). */
  readonly frontier: string;
  /** SQLite: the highest event id sequenced (waiting events are those above it). */
  readonly sequencedId: number;
}

/** A waiting event as the sequencer reads it: its id and its leaf's hash input, 0x00 || the canonical record. */
export interface WaitingRecord {
  readonly id: number;
  readonly leafInput: string;
}

/**
 * One sequencer run, planned: the leaves to append (in order, from index `from.size` on), the events they are, and
 * the log's state after them. It is written only if the log is still in the state it was planned from (`from`): a
 * run planned from a snapshot (the embedded store's planner thread) is dropped when another run got there first.
 */
export interface PlannedRun {
  readonly from: { readonly size: number; readonly sequencedId: number };
  /** The leaf hashes, 32 bytes each, back to back. */
  readonly leaves: Uint8Array;
  readonly ids: readonly number[];
  readonly size: number;
  readonly frontier: string;
  readonly rootHash: string;
  readonly sequencedId: number;
}

/**
 * Hashes each waiting record into its RFC 9162 leaf (SHA-256 of 0x00 || its RFC 8785 JSON) and appends the leaves to
 * the tree's frontier. Pure but for the hashing: the same plan from the same state and records.
 */
export function planRun(state: LogState, waiting: readonly WaitingRecord[]): PlannedRun {
  const frontier = MerkleFrontier.restore(NATIVE_RFC9162, JSON.parse(state.frontier) as FrontierState);
  if (frontier.size !== state.size)
    throw new Error(`audit log state is inconsistent: size ${state.size}, frontier ${frontier.size}`);
  const leaves = new Uint8Array(waiting.length * HASH_BYTES);
  for (const [i, record] of waiting.entries()) {
    const leaf = hash("sha256", record.leafInput, "buffer");
    leaves.set(leaf, i * HASH_BYTES);
    frontier.append(leaf);
  }
  return {
    from: { size: state.size, sequencedId: state.sequencedId },
    leaves,
    ids: waiting.map((r) => r.id),
    size: frontier.size,
    frontier: JSON.stringify(frontier.toJSON()),
    rootHash: toHex(frontier.root()),
    sequencedId: waiting.length === 0 ? state.sequencedId : waiting[waiting.length - 1]!.id,
  };
}

/** Ascending ids as runs of consecutive values, each with its position in the list. */
export function consecutiveRuns(ids: readonly number[]): { first: number; last: number; at: number }[] {
  const runs: { first: number; last: number; at: number }[] = [];
  for (const [i, id] of ids.entries()) {
    const run = runs[runs.length - 1];
    if (run && id === run.last + 1) run.last = id;
    else runs.push({ first: id, last: id, at: i });
  }
  return runs;
}

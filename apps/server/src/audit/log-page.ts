// The page a verifier reads from the log, and what reads it (log-pages.ts, sqlite-log-reader.ts). Imports nothing
// heavy: the verifier's worker thread starts with it.
import { type LatinHash, leafHashOf } from "./verify-tree.js";

/**
 * A page of the log as a verifier reads it: the events with consecutive ids from the page's first, in id order, each
 * with its leaf hash recomputed from its stored fields, ending early at the first id no event holds.
 */
export interface LogPage {
  /** How many events from the first id on the page holds, consecutively (fewer than asked: the next one is gone). */
  readonly held: number;
  /** The leaf hash of the i-th of them (i < held): SHA-256 of 0x00 and the record rebuilt as RFC 8785 JSON. */
  leafHash(i: number): LatinHash;
  /** Where the leaf inputs were built here and hashed in JavaScript: them (0x00 and the JSON), for tests. */
  readonly leafInputs?: readonly string[];
  /** PostgreSQL: the first event held not marked with its leaf index (its offset, and its mark); null: none. */
  readonly badMark?: { readonly at: number; readonly mark: number | null } | null;
  /** When the page ended early: the id of the next event the range does hold (null: none). */
  readonly nextId?: number | null;
}

/** Reads the log's events by id. */
export interface LogReader {
  /**
   * The events with ids `fromId` to `fromId + count - 1`, up to the first missing one; `firstIndex` is the leaf
   * index the journal gives `fromId` (the marks are checked against it where marks are kept).
   */
  read(fromId: number, count: number, firstIndex: number): Promise<LogPage> | LogPage;
  /** How many pages may be asked for before the first is awaited (queries on parallel connections). */
  readonly inFlight: number;
  /**
   * For a journal read without its leaf hashes (the embedded store's verifier: see JournalRun): `length` bytes from
   * byte `from` of the leaf hashes the sequencer journaled for its run starting at `firstIndex`, and how many bytes it
   * stores in all (null: no such run, or none stored).
   */
  runLeafHashes?(firstIndex: number, from: number, length: number): { stored: number; bytes: Uint8Array } | null;
  close(): void;
}

/** Where a page whose query answered fewer rows than asked ends: after the leading run of consecutive ids. */
export function gapOf(ids: readonly number[], fromId: number): { held: number; nextId: number | null } {
  let held = 0;
  while (held < ids.length && ids[held] === fromId + held) held++;
  return { held, nextId: ids[held] ?? null };
}

/** A page of leaf inputs built in the store or here, hashed here. */
export function hashedHere(leafInputs: readonly string[], nextId?: number | null): LogPage {
  return {
    held: leafInputs.length,
    leafHash: (i) => leafHashOf(leafInputs[i]!),
    leafInputs,
    ...(nextId !== undefined ? { nextId } : {}),
  };
}

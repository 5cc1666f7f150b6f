import type { FrontierState } from "@hcs/protocol";
import type { LeafProblem, RangeResult } from "./verify-range.js";
import { bytesToLatin, type LatinHash, latinToHex, nodeHashOf } from "./verify-tree.js";

// A large log is verified by two threads taking pieces of it from one queue, so that neither waits for the other
// when the machine gives them unequal time (the CPU shared with a server, or other work). The pieces are aligned
// perfect subtrees of `span` leaves (a power of two) and what is left after them: each piece's tree is the tree's own
// subtree there, so the whole tree's frontier at any size is the pieces' roots before it, merged, followed by the
// frontier of the piece it falls in (RFC 9162: MTH splits at powers of two).

/** One piece: leaves `from` to `to` (null: to the end of the journal), with the sizes within to report. */
export interface Piece {
  readonly from: number;
  readonly to: number | null;
  /** Absolute sizes in (from, to] at which the piece's frontier is wanted (the checkpoints' sizes). */
  readonly sizes: readonly number[];
}

/**
 * At most this many pieces (plus the rest after them): small enough that the thread which finishes first waits little
 * for the other (~8,192 events a piece for a million: 128 against 32 made a verify ~3.5 % faster in alternated runs,
 * docs/performance.md#the-audit-logs-cost), few enough that planning them and reading each one's journal runs costs
 * nothing.
 */
export const MAX_PIECES = 128;

/** The pieces of a log of `size` leaves: aligned spans of the smallest power of two that keeps them ≤ MAX_PIECES. */
export function planPieces(size: number, sizes: readonly number[]): Piece[] {
  let span = 1;
  while (span * MAX_PIECES < size) span *= 2;
  const full = Math.floor(size / span);
  const pieces: Piece[] = [];
  for (let i = 0; i <= full; i++) {
    const from = i * span;
    const to = i < full ? from + span : null;
    pieces.push({ from, to, sizes: sizes.filter((s) => s > from && (to === null || s <= to)) });
  }
  return pieces;
}

/**
 * A queue of pieces shared between threads (a SharedArrayBuffer): one end taken by the worker thread in index order,
 * the other by the verifying thread from the last piece down. The two ends live in one 32-bit word (16 bits each) so
 * that a piece is claimed by one compare-and-swap and never by both. The first piece may be held back for the worker
 * thread (so that it takes part however small the log: tests rely on it); a second word says who took it.
 */
export class PieceQueue {
  private readonly words: Int32Array;

  /** A queue of `count` pieces (≤ 65,535), the first held back for the worker thread when `holdFirst`. */
  static create(count: number, holdFirst: boolean): SharedArrayBuffer {
    const buffer = new SharedArrayBuffer(8);
    new Int32Array(buffer)[0] = ((holdFirst ? 1 : 0) << 16) | count;
    return buffer;
  }

  constructor(buffer: SharedArrayBuffer) {
    this.words = new Int32Array(buffer);
  }

  /** The worker thread: whether the held-back first piece is its to verify (false: taken by the other thread). */
  takeHeldBack(): boolean {
    return Atomics.compareExchange(this.words, 1, 0, 1) === 0;
  }

  /**
   * The verifying thread, when the worker thread has not yet started on the held-back first piece (a slow start on
   * a busy machine): takes it. True means the worker thread has taken nothing and will take nothing.
   */
  stealHeldBack(): boolean {
    return Atomics.compareExchange(this.words, 1, 0, 2) === 0;
  }

  /** The next piece from the front (-1: none left). */
  takeFront(): number {
    return this.take(true);
  }

  /** The next piece from the back (-1: none left). */
  takeBack(): number {
    return this.take(false);
  }

  private take(front: boolean): number {
    for (;;) {
      const word = Atomics.load(this.words, 0);
      const [f, b] = [word >>> 16, word & 0xffff];
      if (f >= b) return -1;
      const next = front ? ((f + 1) << 16) | b : (f << 16) | (b - 1);
      if (Atomics.compareExchange(this.words, 0, word, next) === word) return front ? f : b - 1;
    }
  }
}

export interface Combined {
  /** The first problem by index: a piece's own, or a piece (not the last) that ended before its end. */
  readonly problem: LeafProblem | null;
  /** Leaves checked in order from index 0 up to the first problem. */
  readonly leaves: number;
  /** The whole tree's frontier at a reported size (null: not reached, or past a problem). */
  stateAt(size: number): FrontierState | null;
}

/** Puts the pieces' results back together, in index order. */
export function combinePieces(pieces: readonly Piece[], results: readonly RangeResult[]): Combined {
  let problem: LeafProblem | null = null;
  let leaves = 0;
  let whole = pieces.length;
  for (const [i, piece] of pieces.entries()) {
    const r = results[i]!;
    leaves = r.end;
    problem =
      r.problem ??
      (piece.to !== null && r.end < piece.to
        ? { kind: "missing", index: r.end, message: `no event holds leaf index ${r.end}: deleted` }
        : null);
    if (problem) {
      whole = i;
      break;
    }
  }
  // The whole tree's peaks: the pieces' roots before the one a size falls in, then that piece's own peaks, pushed as
  // a binary counter carries (a piece complete at that size is one peak of the span's height, and merges).
  const span = pieces.length > 1 ? pieces[0]!.to! : 0;
  const push = (peaks: { height: number; hash: LatinHash }[], height: number, hash: LatinHash) => {
    while (peaks.length > 0 && peaks[peaks.length - 1]!.height === height) {
      hash = nodeHashOf(peaks.pop()!.hash, hash);
      height++;
    }
    peaks.push({ height, hash });
  };
  const latin = (hex: string) => bytesToLatin(Buffer.from(hex, "hex"));
  return {
    problem,
    leaves,
    stateAt(size) {
      const i = pieces.findIndex((p) => size > p.from && (p.to === null || size <= p.to));
      if (i < 0 || i > whole || (i === whole && problem && size > problem.index)) return null;
      const own = results[i]!.states.find((s) => s.size === size)?.state;
      if (!own) return null;
      const peaks: { height: number; hash: LatinHash }[] = [];
      for (let p = 0; p < i; p++) push(peaks, Math.log2(span), latin(results[p]!.final.peaks[0]!.hash));
      for (const peak of own.peaks) push(peaks, peak.height, latin(peak.hash));
      return { size, peaks: peaks.map((p) => ({ height: p.height, hash: latinToHex(p.hash) })) };
    },
  };
}

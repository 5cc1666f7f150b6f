import { MerkleFrontier, RFC9162, sha256, utf8Bytes } from "@hcs/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RangeResult } from "./verify-range.js";
import { combinePieces, MAX_PIECES, PieceQueue, planPieces } from "./verify-split.js";
import { bytesToLatin, VerifierFrontier } from "./verify-tree.js";

const leafAt = (i: number) => sha256(utf8Bytes(`leaf ${i}`));

/** What verifyRange answers for an untouched piece: its own tree from `from` to `end`. */
function pieceResult(from: number, end: number, sizes: readonly number[]): RangeResult {
  const f = new VerifierFrontier();
  const states: RangeResult["states"][number][] = [];
  for (let i = from; i < end; i++) {
    f.append(bytesToLatin(leafAt(i)));
    if (sizes.includes(i + 1)) states.push({ size: i + 1, state: f.toJSON() });
  }
  return { end, problem: null, states, final: f.toJSON() };
}

describe("the log verified in pieces", () => {
  it("plans aligned pieces of one power-of-two span that tile the log, at most MAX_PIECES and the rest", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 5_000_000 }), (size) => {
        const pieces = planPieces(size, []);
        const span = pieces[0]!.to!;
        expect(Number.isInteger(Math.log2(span))).toBe(true);
        expect(pieces.length).toBeLessThanOrEqual(MAX_PIECES + 1);
        for (const [i, p] of pieces.entries()) {
          expect(p.from).toBe(i * span);
          expect(p.to).toBe(i === pieces.length - 1 ? null : p.from + span);
        }
        expect(pieces.at(-1)!.from).toBeLessThanOrEqual(size);
        expect(pieces.at(-1)!.from + span).toBeGreaterThan(size);
      }),
    );
  });

  it("combines the pieces' trees into the whole tree's frontier at every size", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 400 }), fc.array(fc.integer({ min: 1, max: 400 })), (size, wanted) => {
        const sizes = [...new Set(wanted.filter((s) => s <= size))].sort((a, b) => a - b);
        const pieces = planPieces(size, sizes);
        const results = pieces.map((p) => pieceResult(p.from, p.to ?? size, p.sizes));
        const combined = combinePieces(pieces, results);
        expect(combined).toMatchObject({ problem: null, leaves: size });
        const whole = new MerkleFrontier(RFC9162);
        for (let i = 0; i < size; i++) {
          whole.append(leafAt(i));
          if (sizes.includes(i + 1)) expect(combined.stateAt(i + 1)).toEqual(whole.toJSON());
        }
      }),
      { numRuns: 60 },
    );
  });

  it("names the first piece that stopped short or failed, and no state past it", () => {
    const pieces = planPieces(100, [40, 90]);
    const span = pieces[0]!.to!;
    const results = pieces.map((p) => pieceResult(p.from, p.to ?? 100, p.sizes));
    // The piece holding leaf 50 ends at 50 (its events deleted); a later piece has a problem of its own.
    const short = pieces.findIndex((p) => p.from <= 50 && p.to !== null && 50 < p.to);
    results[short] = pieceResult(pieces[short]!.from, 50, pieces[short]!.sizes);
    results[short + 2] = {
      ...results[short + 2]!,
      problem: { kind: "altered", index: (short + 2) * span, message: "" },
    };
    const combined = combinePieces(pieces, results);
    expect(combined.problem).toMatchObject({ kind: "missing", index: 50 });
    expect(combined.leaves).toBe(50);
    expect(combined.stateAt(40)).not.toBeNull();
    expect(combined.stateAt(90)).toBeNull();
  });

  it("hands every piece out once, whichever end takes it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.array(fc.boolean(), { minLength: 600, maxLength: 600 }),
        fc.boolean(),
        (n, sides, workerFirst) => {
          const q = new PieceQueue(PieceQueue.create(n, true));
          // The held-back first piece goes to exactly one of the two threads.
          expect(workerFirst ? q.takeHeldBack() : q.stealHeldBack()).toBe(true);
          expect(q.takeHeldBack() || q.stealHeldBack()).toBe(false);
          const taken = [0];
          for (const front of sides) {
            const piece = front ? q.takeFront() : q.takeBack();
            if (piece >= 0) taken.push(piece);
          }
          expect(q.takeFront()).toBe(-1);
          expect(q.takeBack()).toBe(-1);
          expect(taken.sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
        },
      ),
    );
  });
});

import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ReadBatcher } from "./read-batcher.js";

/** A loader that records each call's keys and answers `value-<key>` for keys not in `absent`. */
function recordingLoader(absent: ReadonlySet<string> = new Set()) {
  const calls: string[][] = [];
  const load = async (keys: readonly string[]) => {
    calls.push([...keys]);
    return new Map(keys.filter((k) => !absent.has(k)).map((k) => [k, `value-${k}`]));
  };
  return { calls, load };
}

describe("ReadBatcher", () => {
  it("answers the reads of one turn with one load, each key loaded once, in the order first asked", async () => {
    const { calls, load } = recordingLoader(new Set(["z"]));
    const reads = new ReadBatcher(load, "missing");
    const answers = await Promise.all(["a", "b", "a", "z", "c", "b"].map((k) => reads.get(k)));
    expect(answers).toEqual(["value-a", "value-b", "value-a", "missing", "value-c", "value-b"]);
    expect(calls).toEqual([["a", "b", "z", "c"]]);
  });

  it("loads again for reads asked in a later turn", async () => {
    const { calls, load } = recordingLoader();
    const reads = new ReadBatcher(load, null);
    expect(await reads.get("a")).toBe("value-a");
    await nextTurn();
    expect(await Promise.all([reads.get("a"), reads.get("b")])).toEqual(["value-a", "value-b"]);
    expect(calls).toEqual([["a"], ["a", "b"]]);
  });

  it("splits a turn's keys into loads of at most maxKeys", async () => {
    const { calls, load } = recordingLoader();
    const reads = new ReadBatcher(load, null, 2);
    const keys = ["a", "b", "c", "d", "e"];
    expect(await Promise.all(keys.map((k) => reads.get(k)))).toEqual(keys.map((k) => `value-${k}`));
    expect(calls).toEqual([["a", "b"], ["c", "d"], ["e"]]);
  });

  it("fails the callers of a load that fails (rejecting or throwing), and only those", async () => {
    const failing = new Set(["bad"]);
    const reads = new ReadBatcher<string, string | null>(
      (keys) => {
        if (keys.includes("throws")) throw new Error("thrown by the loader");
        if (keys.some((k) => failing.has(k))) return Promise.reject(new Error("store unavailable"));
        return Promise.resolve(new Map(keys.map((k) => [k, k])));
      },
      null,
      1,
    );
    const settled = await Promise.allSettled(["ok", "bad", "bad", "throws"].map((k) => reads.get(k)));
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value : (s.reason as Error).message))).toEqual([
      "ok",
      "store unavailable",
      "store unavailable",
      "thrown by the loader",
    ]);
    // The batcher is not left stuck after a failure.
    expect(await reads.get("ok")).toBe("ok");
  });
});

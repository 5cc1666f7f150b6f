import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { settleBefore, signalWithin } from "./deadline.js";

describe("settleBefore", () => {
  it("settles with the fallback when the signal aborts first, even if the work never settles", async () => {
    const controller = new AbortController();
    const never = new Promise<string>(() => {});
    const pending = settleBefore(never, controller.signal, () => "gave up");
    controller.abort();
    expect(await pending).toBe("gave up");
  });

  it("settles with the work when it finishes first", async () => {
    expect(await settleBefore(Promise.resolve("done"), new AbortController().signal, () => "gave up")).toBe("done");
  });

  it("does not leave an unhandled rejection behind when work fails after the deadline", async () => {
    const aborted = AbortSignal.abort();
    const late = Promise.reject(new Error("late failure"));
    expect(await settleBefore(late, aborted, () => "gave up")).toBe("gave up");
  });
});

describe("signalWithin", () => {
  it("aborts after its own time even when a garbage collection comes first (nodejs/node#57736)", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const signal = signalWithin(undefined, 100);
    let aborted = false;
    signal.addEventListener("abort", () => {
      aborted = true;
    });
    gc();
    await new Promise((r) => setTimeout(r, 20));
    gc();
    await new Promise((r) => setTimeout(r, 250));
    expect(aborted).toBe(true);
  });

  it("aborts after its own time", async () => {
    const signal = signalWithin(new AbortController().signal, 20);
    await new Promise((r) => setTimeout(r, 60));
    expect(signal.aborted).toBe(true);
  });

  it("aborts with its parent", () => {
    const parent = new AbortController();
    const signal = signalWithin(parent.signal, 60_000);
    parent.abort();
    expect(signal.aborted).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { RateMirror } from "./rate-mirror.js";

const MINUTE = 60_000;
const bucket = `b:key:key_abc:${MINUTE}`;

describe("RateMirror", () => {
  it("answers the highest committed count seen in the current window, nothing for windows it has not seen", () => {
    const m = new RateMirror();
    expect(m.get(bucket, 0)).toBeUndefined();
    m.observe(bucket, 0, 3, 1_000);
    m.observe(bucket, 0, 2, 1_000); // an earlier call's count, answered after a later one's
    expect(m.get(bucket, 0)).toBe(3);
    expect(m.get(bucket, MINUTE)).toBeUndefined();
  });

  it("moves to a new window and ignores late counts of an ended one", () => {
    const m = new RateMirror();
    m.observe(bucket, 0, 59, 1_000);
    m.observe(bucket, MINUTE, 1, MINUTE + 1);
    m.observe(bucket, 0, 60, MINUTE + 2);
    expect(m.get(bucket, MINUTE)).toBe(1);
    expect(m.get(bucket, 0)).toBeUndefined();
  });

  it("stays bounded: ended windows go first, then everything", () => {
    const m = new RateMirror(3);
    m.observe(`a:${MINUTE}`, 0, 1, 10);
    m.observe(`b:${MINUTE}`, 0, 1, 10);
    m.observe(`c:${MINUTE}`, MINUTE, 1, MINUTE + 10);
    m.observe(`d:${MINUTE}`, MINUTE, 1, MINUTE + 10); // full: a and b (ended) are dropped
    expect([m.get(`a:${MINUTE}`, 0), m.get(`c:${MINUTE}`, MINUTE), m.get(`d:${MINUTE}`, MINUTE)]).toEqual([
      undefined,
      1,
      1,
    ]);
    m.observe(`e:${MINUTE}`, MINUTE, 1, MINUTE + 10);
    m.observe(`f:${MINUTE}`, MINUTE, 1, MINUTE + 10); // full of live windows: cleared, f kept
    expect(m.get(`c:${MINUTE}`, MINUTE)).toBeUndefined();
    expect(m.get(`f:${MINUTE}`, MINUTE)).toBe(1);
  });
});

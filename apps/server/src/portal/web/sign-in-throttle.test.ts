import { describe, expect, it } from "vitest";
import { SignInThrottle } from "./sign-in-throttle.js";

describe("sign-in throttle per client address", () => {
  it("allows the limit per sliding minute, refuses beyond it without counting, and forgets after a minute", () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(3, () => now);
    expect([1, 2, 3].map(() => throttle.allow("192.0.2.1"))).toEqual([true, true, true]);
    expect(throttle.allow("192.0.2.1")).toBe(false);
    expect(throttle.allow("192.0.2.2")).toBe(true); // another address has its own count
    now += 30_000;
    expect(throttle.allow("192.0.2.1")).toBe(false); // refusals were not counted, the first three still are
    now += 30_001;
    expect(throttle.allow("192.0.2.1")).toBe(true);
  });
});

import { MAX_JSON_DEPTH } from "@hcs/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nestsDeeperThan, parseJsonBytes } from "./json-depth.js";

const bytes = (text: string) => Buffer.from(text, "utf8");

/** The nesting depth of a parsed value, the way JSON.parse built it. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === "object") return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

describe("nestsDeeperThan: brackets counted outside strings, before anything is built", () => {
  it("takes exactly `max` levels and refuses one more", () => {
    const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    expect(nestsDeeperThan(bytes(nested(MAX_JSON_DEPTH)), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(bytes(nested(MAX_JSON_DEPTH + 1)), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(bytes(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(bytes(`{"a":${nested(MAX_JSON_DEPTH)}}`), MAX_JSON_DEPTH)).toBe(true);
  });

  it("ignores brackets inside strings, escaped quotes and backslashes included, and in multi-byte text", () => {
    const inStrings = JSON.stringify({ a: "[[[[{{{{", b: ['\\"[[[[', "\\", "ü[€{😀"], c: { d: '"]]]]' } });
    expect(nestsDeeperThan(bytes(inStrings), 2)).toBe(false);
    expect(nestsDeeperThan(bytes(inStrings), 1)).toBe(true);
  });

  it("agrees with the depth JSON.parse builds, for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, max) => {
        const text = JSON.stringify(value);
        expect(nestsDeeperThan(bytes(text), max)).toBe(depthOf(JSON.parse(text)) > max);
      }),
      { numRuns: 2000 },
    );
  });

  it("stops at the first level too deep: 10 MiB of brackets are refused at once", () => {
    const flood = Buffer.alloc(10 * 1024 * 1024, "[");
    const started = performance.now();
    expect(nestsDeeperThan(flood, MAX_JSON_DEPTH)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5);
  });
});

describe("parseJsonBytes", () => {
  it("refuses too deep with invalid_json and details.max_depth, and bad JSON with invalid_json", () => {
    expect(() => parseJsonBytes(bytes("[".repeat(65) + "]".repeat(65)), "the body")).toThrow(
      expect.objectContaining({ code: "invalid_json", details: { max_depth: 64 } }),
    );
    expect(() => parseJsonBytes(bytes("{"), "the body")).toThrow(
      expect.objectContaining({ code: "invalid_json", message: "the body is not valid JSON" }),
    );
    expect(parseJsonBytes(bytes('{"a":[1,{"b":null}]}'), "the body")).toEqual({ a: [1, { b: null }] });
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { idTexts } from "./id-text.js";

describe("idTexts: each request's id member as written", () => {
  it("reads number ids JSON.parse would round or rewrite", () => {
    expect(idTexts('{"jsonrpc":"2.0","id":12345678901234567891,"method":"m"}')).toEqual(["12345678901234567891"]);
    expect(idTexts('{"id":1.0}')).toEqual(["1.0"]);
    expect(idTexts('{"id":-1E+400 }')).toEqual(["-1E+400"]);
    expect(idTexts('[{"id":1e2},{"id":"x"},{"a":{"id":3}},7,[{"id":4}],{"id":null}]')).toEqual([
      "1e2",
      '"x"',
      undefined,
      undefined,
      undefined,
      "null",
    ]);
    expect(idTexts("[]")).toEqual([]);
    expect(idTexts("{}")).toEqual([undefined]);
  });

  it("skips strings that look like members, reads escaped names, and takes the last of repeated members", () => {
    expect(idTexts('{"p":"\\",\\"id\\":9","\\u0069d":1,"q":{"id":2},"id" : 3 }')).toEqual(["3"]);
    expect(idTexts('{"id":1,"\\u0069d":2}')).toEqual(["2"]);
    expect(idTexts('{"id\\\\":1}')).toEqual([undefined]);
  });

  it("agrees with JSON.parse on every id it can represent exactly, in single requests and batches", () => {
    const id = fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string(),
      fc.constant(null),
    );
    const request = fc.record(
      { jsonrpc: fc.constant("2.0"), id, method: fc.string(), params: fc.jsonValue({ maxDepth: 3 }) },
      { requiredKeys: ["jsonrpc", "method"] },
    );
    fc.assert(
      fc.property(
        fc.oneof(request, fc.array(fc.oneof(request, fc.jsonValue({ maxDepth: 2 })), { maxLength: 5 })),
        (body) => {
          const text = JSON.stringify(body, null, fc.sample(fc.constantFrom(0, 1, "\t"), 1)[0]);
          const entries = Array.isArray(body) ? body : [body];
          const expected = entries.map((e) =>
            e !== null && typeof e === "object" && !Array.isArray(e) && "id" in e ? JSON.stringify(e.id) : undefined,
          );
          expect(idTexts(text)).toEqual(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

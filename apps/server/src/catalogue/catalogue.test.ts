import { describe, expect, it } from "vitest";
import { modulesLoadedBy } from "../test-support/loaded-modules.js";
import { DECLARATIONS } from "./declarations.js";
import { CATALOGUE } from "./index.js";

// The catalogue is two lists held equal: the declarations (metadata, importable alone) and the operations (each a
// declaration with its handler bound in the operation's own module).

describe("the catalogue", () => {
  it("binds a handler to every declaration, in the same order, with the declaration's own metadata", () => {
    expect(CATALOGUE.operations.map((op) => op.id)).toEqual(DECLARATIONS.map((d) => d.id));
    for (const [i, op] of CATALOGUE.operations.entries()) {
      const declaration = DECLARATIONS[i]!;
      expect(typeof op.run).toBe("function");
      // The same schemas and bindings, not copies that could drift.
      expect(op.input).toBe(declaration.input);
      expect(op.output).toBe(declaration.output);
      expect(op.rest).toBe(declaration.rest);
      expect(op.access).toBe(declaration.access);
      expect(op.price).toBe(declaration.price);
      if (declaration.rest?.readsOwnBody) expect(op.restReaders?.input, op.id).toBeTypeOf("function");
    }
  });

  it("has declarations that load no handler: no service, store, transport or pipeline code", () => {
    const own = modulesLoadedBy(`${import.meta.dirname}/declarations.ts`)
      .filter((url) => url.includes("/apps/server/src/"))
      .map((url) => url.replace(/^.*\/apps\/server\/src\//, ""));
    const handlers = own.filter(
      (f) => f.startsWith("catalogue/") && !/\.declaration\.ts$|^catalogue\/(declarations|summary-text)\.ts$/.test(f),
    );
    expect(handlers).toEqual([]);
    // Schemas and the declaration type only: nothing that runs a call.
    const running = own.filter(
      (f) =>
        (/^(http|store|jobs|webhooks|external-scan|audit|rpc|mcp|a2a|portal|reports)\//.test(f) &&
          f !== "reports/formats.ts") ||
        /^operations\/(?!operation\.ts)/.test(f) ||
        (/^services\//.test(f) && !/^services\/(deps|jobs-page-budget)\.ts$/.test(f)),
    );
    expect(running).toEqual([]);
    // The catalogue itself loads some 200 of the server's modules; its declarations a few dozen, most of them theirs.
    expect(own.length).toBeLessThan(60);
  }, 30_000);
});

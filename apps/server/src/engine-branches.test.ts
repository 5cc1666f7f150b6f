import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isTestSupport, sourceModules } from "./test-support/import-graph.js";

// What the engines do differently is the store's to know (docs/architecture.md): code outside store/ asks the
// store's capabilities (store/engine-capabilities.ts: `store.locks`, `store.audit`), never which engine it is.
// Held over every module of src/ but tests, test support and store/ itself.

const ENGINE_BRANCH =
  /\bengine\s*[!=]==?\s*["'](?:postgres|sqlite)["']|["'](?:postgres|sqlite)["']\s*[!=]==?\s*[\w.]*engine\b/;

describe("engine branches stay behind the store", () => {
  const files = sourceModules(import.meta.dirname, (f) => f.startsWith("store/") || isTestSupport(f));

  it("reads the server's modules", () => {
    expect(files.length).toBeGreaterThan(400);
    expect(files).toContain("jobs/queue.ts");
    expect(files.some((f) => f.startsWith("store/"))).toBe(false);
  });

  it("no module outside store/ branches on the engine", () => {
    const branching = files.filter((f) => ENGINE_BRANCH.test(readFileSync(join(import.meta.dirname, f), "utf8")));
    expect(branching).toEqual([]);
  });

  it("the pattern finds the forms a branch takes", () => {
    for (const line of [
      'if (store.engine === "postgres")',
      "engine !== 'sqlite'",
      'deps.store.engine==="sqlite"',
      '"postgres" === engine',
    ])
      expect(ENGINE_BRANCH.test(line), line).toBe(true);
    expect(ENGINE_BRANCH.test('engine: "sqlite"')).toBe(false);
  });
});

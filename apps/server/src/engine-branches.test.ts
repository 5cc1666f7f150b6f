import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// What the engines do differently is the store's to know (docs/architecture.md): code outside store/ asks the
// store's capabilities (store/engine-capabilities.ts: `store.locks`, `store.audit`), never which engine it is.
// Held over every module of src/ but tests, test support and store/ itself.

const ENGINE_BRANCH =
  /\bengine\s*[!=]==?\s*["'](?:postgres|sqlite)["']|["'](?:postgres|sqlite)["']\s*[!=]==?\s*[\w.]*engine\b/;

function modules(dir: string, root = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(root, path).split("\\").join("/");
    if (entry.isDirectory()) {
      if (rel === "store" || entry.name === "test-support" || entry.name === "node_modules") continue;
      out.push(...modules(path, root));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      out.push(rel);
    }
  }
  return out;
}

describe("engine branches stay behind the store", () => {
  const files = modules(import.meta.dirname);

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

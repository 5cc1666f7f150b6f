import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importGraph as graphOf, importCycles } from "../test-support/import-graph.js";

const root = dirname(fileURLToPath(import.meta.url));

/** Every non-test module of the external scan, with the relative modules it imports (type-only imports included). */
const importGraph = () => graphOf(root, (f) => f.startsWith("test-support/"));
const cycles = importCycles;

describe("external scan import graph", () => {
  it("reads the modules and their imports", () => {
    const graph = importGraph();
    expect(graph.get("check.ts")).toContain("check-status.ts");
    expect(graph.size).toBeGreaterThan(50);
  });

  it("has no import cycle (check statuses live in a leaf module)", () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it("keeps check-status.ts a leaf: it imports nothing of the scan but IO types", () => {
    expect(importGraph().get("check-status.ts")).toEqual(["io/types.ts"]);
  });
});

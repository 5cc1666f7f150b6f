import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = dirname(fileURLToPath(import.meta.url));

/** Every non-test module of the external scan, with the relative modules it imports (type-only imports included). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
    (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.includes("fixtures"),
  );
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const targets = [...text.matchAll(/^(?:import|export)\b[^;]*?from\s+"(\.[^"]+)"/gms)].map((m) =>
      relative(root, resolve(root, dirname(file), m[1]!.replace(/\.js$/, ".ts"))),
    );
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components with more than one module (Tarjan): each is an import cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

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

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * Every non-test module under `root` (`.ts`/`.tsx`, no declaration files, nothing under a fixtures directory), as
 * paths relative to `root` with `/` separators, but those `skip` names: what the source rules (import graph, engine
 * branches, owner writes) are held over.
 */
export function sourceModules(root: string, skip: (file: string) => boolean = () => false): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .map((f) => f.split("\\").join("/"))
    .filter(
      (f) =>
        /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith(".d.ts") && !f.includes("fixtures") && !skip(f),
    );
}

/** True for a module of test support (test-support/ at any depth): no rule about production code binds it. */
export const isTestSupport = (file: string) => file.startsWith("test-support/") || file.includes("/test-support/");

/**
 * The relative imports of every non-test module under `root`: static, type-only, re-exports and dynamic
 * `import("…")` alike (a type-only arrow is still a dependency a reader follows, and a dynamic one still runs).
 * Keys and targets are paths relative to `root`, `.ts`/`.tsx` as on disk.
 */
export function importGraph(root: string, skip: (file: string) => boolean = () => false): Map<string, string[]> {
  const files = sourceModules(root, skip);
  const onDisk = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const specifiers = [
      ...[...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/gms)].map((m) => m[1]!),
      ...[...text.matchAll(/\bimport\(\s*"(\.[^"]+)"\s*\)/g)].map((m) => m[1]!),
      ...[...text.matchAll(/^import\s+"(\.[^"]+)"/gm)].map((m) => m[1]!),
    ];
    const targets = new Set<string>();
    for (const spec of specifiers) {
      const base = relative(root, resolve(root, dirname(file), spec)).replace(/\.js$/, "");
      const target = [`${base}.ts`, `${base}.tsx`].find((t) => onDisk.has(t)) ?? `${base}.ts`;
      targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Strongly connected components with more than one module (Tarjan): each is an import cycle. */
export function importCycles(graph: Map<string, string[]>): string[][] {
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

/** A shortest path of imports from `from` to `to`, for a readable failure (null when there is none). */
export function importPath(graph: Map<string, string[]>, from: string, to: string): string[] | null {
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift()!;
    if (node === to) {
      const path = [to];
      while (path[0] !== from) path.unshift(previous.get(path[0]!)!);
      return path;
    }
    for (const next of graph.get(node) ?? [])
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
  }
  return null;
}

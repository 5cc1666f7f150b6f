import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("@hcs/protocol is runtime-neutral", () => {
  const files = sourceFiles(SRC);

  it("finds its sources", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it("imports nothing but zod and its own files (no node:, no bare built-ins) and uses no Node globals", () => {
    const offenders: string[] = [];
    for (const file of files) {
      // Comments may name Node things ("no Buffer here"); only code counts.
      const text = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)["']([^"']+)["']/g)) {
        const spec = m[1]!;
        if (spec.startsWith(".")) continue;
        if (spec === "zod") continue;
        offenders.push(`${file}: ${spec}`);
      }
      if (/\bprocess\.|\bBuffer\b|\b__dirname\b/.test(text)) offenders.push(`${file}: uses a Node global`);
    }
    expect(offenders).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(SRC, "..", "package.json"), "utf8"));
    expect(Object.keys(pkg.dependencies)).toEqual(["zod"]);
  });

  it("writes its public surface out (no export *)", () => {
    const index = readFileSync(join(SRC, "index.ts"), "utf8");
    expect(index).not.toMatch(/^\s*export\s+\*/m);
  });
});

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The check ids the scanner's phases can raise, read from their sources: every `phaseFinding("<phase>", { check: … })`
 * call, with each name its `check:` expression can take (a ternary names two). The scanner has no catalogue of its
 * own; this is what the mapping test and bench/host-audit hold the Lynis mapping against.
 */
export function scannerCheckIds(phasesDir: string = join(import.meta.dirname, "..", "..", "phases")): Set<string> {
  const ids = new Set<string>();
  for (const file of sourceFiles(phasesDir)) {
    const text = readFileSync(file, "utf8");
    for (const call of text.matchAll(/phaseFinding\(\s*"([a-z_]+)"\s*,\s*\{[\s\S]*?\bcheck:\s*([^\n]+)/g)) {
      // The expression's value: a name at its start or after `?`/`:` (a compared value like `=== "os"` is not one).
      for (const name of call[2]!.matchAll(/(?:^|[?:])\s*"([a-z0-9_]+)"/g)) ids.add(`${call[1]}.${name[1]}`);
    }
  }
  return ids;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === "fixtures" ? [] : sourceFiles(path);
    return d.name.endsWith(".ts") && !d.name.endsWith(".test.ts") ? [path] : [];
  });
}

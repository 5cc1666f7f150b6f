import { resolve } from "node:path";
import type { ScanScope } from "../phases/phase.js";

// What a scan command decides before any phase runs, as pure functions (commands/scan.ts does the IO).

/** --ephi-paths as absolute paths (comma-separated, relative to the working directory). */
export function ephiPathsOf(option: string | undefined, cwd: string): string[] {
  return (option ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => resolve(cwd, p));
}

/**
 * What the operator is told on stderr before the scan: phases added for the ones chosen, the subnets `auto` covers,
 * and --ephi-paths that do not exist (a mistyped folder would otherwise read as "no ePHI found there").
 */
export function scanPlanNotices(input: {
  readonly added: readonly string[];
  readonly scope: ScanScope;
  readonly missingEphiPaths: readonly string[];
  readonly quiet: boolean;
  readonly json: boolean;
}): string[] {
  const lines: string[] = [];
  if (input.added.length > 0 && !input.quiet && !input.json)
    lines.push(`also running ${input.added.join(", ")} (needed by the phases you chose)`);
  if (input.scope.mode === "auto" && !input.quiet)
    lines.push(`--targets auto: scanning this machine's subnets: ${input.scope.given.join(", ")}`);
  for (const path of input.missingEphiPaths)
    lines.push(`warning: --ephi-paths ${path} does not exist: it is not scanned (check the spelling)`);
  return lines;
}

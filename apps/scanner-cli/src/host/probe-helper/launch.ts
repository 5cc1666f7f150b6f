import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The file the bundle emits the helper's entry as, next to the scanner's own bundle (build.mjs). */
export const HELPER_BUNDLE_NAME = "probe-helper.js";

/**
 * The node arguments that start the probe helper, found relative to this module: from the TypeScript sources
 * (vitest, tsx) main.ts through tsx's loader; from a bundle (dist/bin.js in the package, or a bench's bundle),
 * the helper bundle beside it. `entry`: a built helper to run instead (benchmarks time the helper as shipped).
 */
export function helperArgs(entry?: string, moduleUrl: string = import.meta.url): string[] {
  if (entry !== undefined) return [entry];
  if (moduleUrl.endsWith(".ts"))
    return ["--import", tsxLoader(moduleUrl), fileURLToPath(new URL("./main.ts", moduleUrl))];
  return [fileURLToPath(new URL(`./${HELPER_BUNDLE_NAME}`, moduleUrl))];
}

function tsxLoader(moduleUrl: string): string {
  const tsxDir = dirname(createRequire(moduleUrl).resolve("tsx/package.json"));
  return pathToFileURL(join(tsxDir, "dist/loader.mjs")).href;
}

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * How tests run the real `hcs-server`: Node's arguments before the command's own. By default the sources through
 * tsx (tests never need a build). With `HCS_TEST_BIN=dist` the build, `apps/server/dist/bin.js`, as deployments run
 * it: `.ci/run` builds first and runs the e2e tier so (README, "Tests"), because tsx compiles the ~600 modules of
 * every spawned command again — about 2.9 s of CPU per command against 1.0 s built, and the e2e tier spawns ~150.
 */
export interface HcsBin {
  /** Node's arguments: a loader (tsx) when running the sources, then the entry point. */
  readonly nodeArgs: readonly string[];
  /** The entry point alone (for a runner that adds its own Node options). */
  readonly script: string;
  /** The loader's arguments alone (empty for the build). */
  readonly loader: readonly string[];
}

const SOURCE_BIN = join(import.meta.dirname, "..", "bin.ts");
const BUILT_BIN = join(import.meta.dirname, "..", "..", "dist", "bin.js");
/** tsx's loader by path: `--import tsx` would be looked up from the command's working directory. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

function hcsBin(): HcsBin {
  const setting = process.env.HCS_TEST_BIN ?? "src";
  if (setting === "dist") {
    if (!existsSync(BUILT_BIN))
      throw new Error(`HCS_TEST_BIN=dist but ${BUILT_BIN} is missing: run npm run build first`);
    return { nodeArgs: [BUILT_BIN], script: BUILT_BIN, loader: [] };
  }
  if (setting !== "src") throw new Error(`HCS_TEST_BIN must be src or dist (got "${setting}")`);
  return { nodeArgs: ["--import", TSX, SOURCE_BIN], script: SOURCE_BIN, loader: ["--import", TSX] };
}

export const HCS_BIN: HcsBin = hcsBin();

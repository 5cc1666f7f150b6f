import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { HCS_BIN } from "./hcs-bin.js";

const run = promisify(execFile);

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  /** stderr without the line naming the store (see `store`), so that a test can compare a message whole. */
  readonly stderr: string;
  /** The line every command that opens a store prints on stderr (`store: sqlite:/…/hcs.sqlite`), or null. */
  readonly store: string | null;
}

/** Separates the command's `store: …` line (cli/context.ts storeLine) from the rest of its stderr. */
export function withStoreLine(code: number, stdout: string, stderr: string): CliRun {
  const lines = stderr.split("\n");
  const at = lines.findIndex((l) => l.startsWith("store: "));
  if (at < 0) return { code, stdout, stderr, store: null };
  const store = lines[at]!;
  lines.splice(at, 1);
  return { code, stdout, stderr: lines.join("\n"), store };
}

/**
 * Runs the real `hcs-server` entry point (test-support/hcs-bin.ts: the sources through tsx, or the build) on `dataDir` (HCS_DATA_DIR, resolved from `options.cwd` when
 * relative) and returns its exit code and output. Only PATH and HOME come from this process's environment.
 */
export async function runHcsServer(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
  options: { cwd?: string } = {},
): Promise<CliRun> {
  try {
    const r = await run(process.execPath, [...HCS_BIN.nodeArgs, ...args], {
      ...(options.cwd ? { cwd: options.cwd } : {}),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        HCS_DATA_DIR: dataDir,
        HCS_LOG_LEVEL: "silent",
        ...env,
      },
      timeout: 30_000,
    });
    return withStoreLine(0, r.stdout, r.stderr);
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return withStoreLine(e.code, e.stdout, e.stderr);
  }
}

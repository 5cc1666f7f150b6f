import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const BIN = join(import.meta.dirname, "..", "bin.ts");

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real `hcs-server` entry point (through tsx) on `dataDir` and returns its exit code and output. */
export async function runHcsServer(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  try {
    const r = await run(process.execPath, ["--import", "tsx", BIN, ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        HCS_DATA_DIR: dataDir,
        HCS_LOG_LEVEL: "silent",
        ...env,
      },
      timeout: 30_000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

import { spawn } from "node:child_process";
import { join } from "node:path";

const BIN = join(import.meta.dirname, "..", "bin.ts");

export interface ScannerRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real `hcs-scanner` entry point (through tsx) as a separate process, with optional stdin. */
export function runScanner(
  args: string[],
  o: { env?: Record<string, string>; stdin?: string; timeoutMs?: number; bin?: string[] } = {},
): Promise<ScannerRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(o.bin?.[0] ?? process.execPath, [...(o.bin?.slice(1) ?? ["--import", "tsx", BIN]), ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...o.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), o.timeoutMs ?? 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(o.stdin ?? "");
  });
}

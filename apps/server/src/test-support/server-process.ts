import { type ChildProcess, spawn } from "node:child_process";
import { HCS_BIN } from "./hcs-bin.js";
import { serverProcessEnv } from "./server-env.js";

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  readonly output: () => { stdout: string; stderr: string };
  /** True while the process runs. */
  readonly alive: () => boolean;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts `hcs-server <args>` with `env` added to this process's environment and resolves once its output
 * (stdout and stderr together) matches `ready`, with the match. Rejects if it exits first or takes too long.
 */
export function startServerProcess(
  args: readonly string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<{ proc: ServerProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...HCS_BIN.nodeArgs, ...args], {
      env: serverProcessEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const proc: ServerProcess = {
      child,
      output: () => ({ stdout, stderr }),
      alive: () => child.exitCode === null && child.signalCode === null,
      async stop() {
        if (!proc.alive()) return;
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      },
    };
    const timer = setTimeout(() => {
      settled = true;
      child.kill("SIGKILL");
      reject(new Error(`hcs-server ${args.join(" ")} was not ready in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    const check = () => {
      if (settled) return;
      const match = ready.exec(`${stdout}\n${stderr}`);
      if (!match) return;
      settled = true;
      clearTimeout(timer);
      resolve({ proc, match });
    };
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      check();
    });
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
      check();
    });
    child.on("exit", (code, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(
        new Error(`hcs-server ${args.join(" ")} exited (${code ?? signal}) before it was ready:\n${stdout}\n${stderr}`),
      );
    });
  });
}

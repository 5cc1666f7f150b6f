import { type ChildProcess, spawn } from "node:child_process";

/** A person's shell: PATH and HOME only, nothing of the test run's own environment (npm_config_*, DATABASE_URL). */
export const personEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  ...extra,
});

export interface DocumentedProcess {
  readonly child: ChildProcess;
  /** stdout and stderr so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves with the first match of `pattern` in stdout and stderr together; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** The exit code (null after a signal), once it exits. */
  readonly exited: Promise<number | null>;
  /** SIGTERM to the whole process group (npm, its shell, node), SIGKILL after 20 s; resolves on exit. */
  stop(): Promise<void>;
}

/**
 * Runs a command taken from the docs as a person runs it, with bash, in `cwd`, in a process group of its own (so that
 * stopping it stops what npm started), stdin a pipe the test may write to.
 */
export function runDocumentedCommand(command: string, cwd: string, env: Record<string, string>): DocumentedProcess {
  const child = spawn("bash", ["-c", command], { cwd, env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const w of waiters) w();
  };
  child.stdout!.on("data", (d: Buffer) => {
    stdout += d.toString();
    changed();
  });
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
    changed();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let done = false;
  void exited.then(() => {
    done = true;
    changed();
  });
  const alive = () => !done;
  return {
    child,
    output: () => ({ stdout, stderr }),
    exited,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${command}: no ${pattern} in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
        }, timeoutMs);
        const check = () => {
          const m = pattern.exec(`${stdout}\n${stderr}`);
          if (!m && alive()) return;
          waiters.delete(check);
          clearTimeout(timer);
          if (m) resolve(m);
          else reject(new Error(`${command} exited before ${pattern}:\n${stdout}\n${stderr}`));
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (!alive()) return;
      process.kill(-child.pid!, "SIGTERM");
      const killer = setTimeout(() => {
        if (alive()) process.kill(-child.pid!, "SIGKILL");
      }, 20_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

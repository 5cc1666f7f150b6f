import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

export interface Spawned {
  readonly child: ChildProcess;
  readonly output: () => string;
  stop(): Promise<void>;
}

/**
 * Spawns a Node process and resolves once `ready` matches its output. The tsx loader is added only when the script
 * run is a TypeScript file: plain JavaScript (a built bin.js) runs with plain `node`, without tsx's loader hooks.
 * `args`: Node options (each a single argument, `--flag=value`), then the script and its arguments.
 */
export function spawnNode(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ proc: Spawned; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const script = args.find((a) => !a.startsWith("-"));
    const loader = script !== undefined && /\.[cm]?tsx?$/.test(script) ? ["--import", "tsx"] : [];
    const child = spawn(process.execPath, [...loader, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`process did not become ready:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          match: m,
          proc: {
            child,
            output: () => out,
            stop: () =>
              new Promise((r) => {
                if (child.exitCode !== null) return r();
                child.once("exit", () => r());
                child.kill("SIGTERM");
              }),
          },
        });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited early (${code}):\n${out}`));
    });
  });
}

/** Resident set size and its peak, in MiB, and the command name of a process, from /proc (Linux). */
export function rssOf(pid: number): { name: string; rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? "", rssMiB: kb("VmRSS") / 1024, peakMiB: kb("VmHWM") / 1024 };
}

/** CPU time (user + system) a process has used so far, in seconds (Linux /proc; clock ticks are 100 Hz). */
export function cpuSecondsOf(pid: number): number {
  return ticksOf(`/proc/${pid}/stat`);
}

/**
 * CPU seconds of each thread of a process, by thread id (Linux /proc/<pid>/task). Node names all its threads "node",
 * so they are told apart by id: the main thread's id is the process id (the serving thread of a server), and threads
 * started later have higher ids.
 */
export function threadCpuSecondsOf(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(tid), ticksOf(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

function ticksOf(statFile: string): number {
  const fields = readFileSync(statFile, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Resets a process's peak resident set size (VmHWM) to its current size (Linux: `5` to /proc/<pid>/clear_refs), so
 * that a later {@link rssOf} reports the peak of what ran since. Returns false where that is not possible.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** How the cluster's processes run `hcs-server`: Node options, then the entry point (source through tsx, or built). */
export interface ServerBin {
  readonly nodeArgs: readonly string[];
  readonly script: string;
}

export type Role = "serve" | "worker";

/** One life of a process in a slot: from its start to its end (null while it runs), with its memory samples. */
export interface Incarnation {
  readonly pid: number;
  readonly startedAt: number;
  endedAt: number | null;
  /** Why it ended: killed by the soak (kill -9, the end), or on its own (a crash: exit code or signal). */
  end: "killed" | "stopped" | `exited ${string}` | null;
  readonly rss: { t: number; mib: number }[];
}

/** A place for one process (serve-0, worker-1…): restarted in it after kill -9, on its own data directory. */
export interface Slot {
  readonly name: string;
  readonly role: Role;
  readonly dataDir: string;
  /** The HTTPS URL a serving process answers on (null while it is down or starting). */
  url: string | null;
  readonly lives: Incarnation[];
  /** What the process printed last (its last 16 KiB), for the report of a failure. */
  tail: string;
  /** The error lines it logged (pino level 50 and up; the first 200, each cut at 2 KiB): what a 500 is traced by. */
  readonly errors: string[];
}

const READY: Record<Role, RegExp> = { serve: /listening on (https:\/\/\S+)/, worker: /HCS worker \S+ running/ };
const TAIL = 16 * 1024;

/**
 * The soak's processes: `hcs-server serve --no-worker` and `hcs-server worker`, each on a data directory of its own
 * (holding a copy of one TLS CA, so clients trust every instance alike), all with one environment (the database
 * behind the soak's TCP proxy, one master key). A process killed with SIGKILL is started again in its slot; one that
 * cannot start (the database is down) is tried again every second.
 */
export class Cluster {
  readonly slots: Slot[] = [];
  private readonly children = new Map<Slot, ChildProcess>();
  private stopping = false;

  constructor(
    private readonly o: {
      readonly bin: ServerBin;
      readonly env: Record<string, string>;
      readonly baseDir: string;
      /** A data directory whose `tls/` every slot copies. */
      readonly tlsTemplate: string;
      readonly roles: readonly Role[];
    },
  ) {
    const counts = { serve: 0, worker: 0 };
    for (const role of o.roles) {
      const name = `${role}-${counts[role]++}`;
      const dataDir = join(o.baseDir, name);
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      cpSync(join(o.tlsTemplate, "tls"), join(dataDir, "tls"), { recursive: true });
      this.slots.push({ name, role, dataDir, url: null, lives: [], tail: "", errors: [] });
    }
  }

  /** The CA every serving process's certificate chains to. */
  caPem(): string {
    return readFileSync(join(this.o.tlsTemplate, "tls", "ca.crt"), "utf8");
  }

  async startAll(): Promise<void> {
    // One first (it migrates the schema and provisions the audit log's key), then the others together.
    await this.start(this.slots[0]!);
    await Promise.all(this.slots.slice(1).map((s) => this.start(s)));
  }

  /** The URLs of the serving processes that are up. */
  liveUrls(): string[] {
    return this.slots.flatMap((s) => (s.role === "serve" && s.url ? [s.url] : []));
  }

  /** kill -9, then the same slot is started again (resolves once it is back). */
  async kill(slot: Slot): Promise<void> {
    const child = this.children.get(slot);
    if (!child) return;
    slot.url = null;
    const life = slot.lives.at(-1)!;
    life.end = "killed";
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
    await this.start(slot);
  }

  /** Samples each running process's resident memory (Linux /proc). */
  sampleMemory(now = Date.now()): void {
    for (const slot of this.slots) {
      const life = slot.lives.at(-1);
      if (!life || life.endedAt !== null) continue;
      try {
        const status = readFileSync(`/proc/${life.pid}/status`, "utf8");
        const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
        if (Number.isFinite(kb)) life.rss.push({ t: now, mib: kb / 1024 });
      } catch {
        // It ended between the check and the read.
      }
    }
  }

  /** Starts a slot's process, again and again until it is ready (a process cannot start while the database is away). */
  async start(slot: Slot): Promise<void> {
    for (let attempt = 1; !this.stopping; attempt++) {
      try {
        await this.startOnce(slot);
        return;
      } catch (err) {
        if (attempt >= 120) throw err;
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  }

  private startOnce(slot: Slot): Promise<void> {
    const args = [
      ...this.o.bin.nodeArgs,
      this.o.bin.script,
      ...(slot.role === "serve" ? ["serve", "--no-worker"] : ["worker"]),
    ];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...this.o.env, HCS_DATA_DIR: slot.dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new Promise((resolve, reject) => {
      let ready = false;
      let seen = "";
      let partial = "";
      const onData = (d: Buffer) => {
        const text = d.toString();
        slot.tail = (slot.tail + text).slice(-TAIL);
        const lines = (partial + text).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines)
          if (/"level":(50|60)/.test(line) && slot.errors.length < 200) slot.errors.push(line.slice(0, 2048));
        if (ready) return;
        seen += text;
        const m = READY[slot.role].exec(seen);
        if (!m) return;
        ready = true;
        seen = "";
        if (slot.role === "serve") slot.url = m[1]!;
        this.children.set(slot, child);
        slot.lives.push({ pid: child.pid!, startedAt: Date.now(), endedAt: null, end: null, rss: [] });
        resolve();
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.on("exit", (code, signal) => {
        if (!ready) {
          reject(new Error(`${slot.name} exited (${code ?? signal}) before it was ready:\n${slot.tail.slice(-2_000)}`));
          return;
        }
        const life = slot.lives.at(-1)!;
        life.endedAt = Date.now();
        life.end ??= this.stopping ? "stopped" : `exited ${code ?? signal}`;
        if (this.children.get(slot) === child) this.children.delete(slot);
        slot.url = null;
        // A process that died by itself is a finding (the report counts it), and the slot is started again.
        if (life.end.startsWith("exited") && !this.stopping) void this.start(slot);
      });
    });
  }

  /** SIGTERM to every process (the servers drain and close), waiting for each to exit. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.children.entries()].map(async ([slot, child]) => {
        const life = slot.lives.at(-1);
        if (life) life.end = "stopped";
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }
}

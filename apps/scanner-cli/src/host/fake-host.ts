import type { Platform } from "@hcs/protocol";
import {
  type BlockDevice,
  type ConnectResult,
  type ExecResult,
  type Host,
  type HostFs,
  type NetProbe,
  type NetworkConnection,
  type NetworkInterface,
  type OsInfo,
  type ProcessInfo,
  type SysInfo,
  type TlsProbeResult,
  UNKNOWN_OS,
} from "./host.js";

/** How a scripted command answers; a plain string is its stdout with exit code 0. */
export interface FakeCommand {
  readonly stdout?: string;
  readonly stderr?: string;
  readonly exitCode?: number;
  readonly notFound?: boolean;
  readonly permissionDenied?: boolean;
  readonly timedOut?: boolean;
}

export interface FakeFile {
  readonly content: string | Uint8Array;
  readonly mtimeMs?: number;
  readonly mode?: number;
  /** False: the file exists but this run may not read it (readFile and readBytes answer null). */
  readonly readable?: boolean;
  /** False: its directory may not be searched by this run, so it cannot even be seen (presence answers `denied`). */
  readonly searchable?: boolean;
}

export interface FakeSysInfo {
  readonly osInfo: OsInfo;
  readonly networkInterfaces: NetworkInterface[];
  readonly defaultGateway: string | null;
  readonly system: { manufacturer: string; model: string; serial: string; virtual: boolean };
  readonly cpu: { brand: string; cores: number };
  readonly memoryBytes: number;
  readonly blockDevices: BlockDevice[];
  readonly users: { user: string; tty: string; date: string }[];
  readonly processes: ProcessInfo[];
  readonly networkConnections: NetworkConnection[];
}

export interface FakeHostScript {
  readonly platform: Platform;
  /** The OS's name for the machine (default "fake-host"). */
  readonly hostname?: string;
  readonly isPrivileged?: boolean;
  /** Keyed by the whole command line as the phase runs it (`"lsblk -J -b -o NAME,…"`); others are not found. */
  readonly commands?: Readonly<Record<string, string | FakeCommand>>;
  readonly sysinfo?: Partial<FakeSysInfo>;
  readonly net?: {
    /** `host:port` pairs that accept connections; every other port is closed. */
    readonly open?: readonly string[];
    /** `host:port` pairs that never answer. */
    readonly filtered?: readonly string[];
    readonly tls?: Readonly<Record<string, TlsProbeResult>>;
    readonly dns?: Readonly<Record<string, string[]>>;
    readonly rttMs?: number;
    readonly socketBudget?: number;
  };
  readonly files?: Readonly<Record<string, string | FakeFile>>;
  readonly now?: Date;
}

/** What the fake host was asked to do, so tests can assert on it (e.g. no probe outside the scope). */
export interface FakeHostCalls {
  readonly exec: string[];
  readonly connect: string[];
  readonly tls: string[];
}

export type FakeHost = Host & { readonly calls: FakeHostCalls };

const DEFAULT_NOW = new Date("2026-01-15T12:00:00.000Z");

/** A scripted host for tests: commands answered from fixtures, sysinfo, sockets and files from the script. */
export function createFakeHost(script: FakeHostScript): FakeHost {
  const calls: FakeHostCalls = { exec: [], connect: [], tls: [] };
  const now = script.now ?? DEFAULT_NOW;
  return {
    platform: script.platform,
    hostname: () => script.hostname ?? "fake-host",
    isPrivileged: script.isPrivileged ?? true,
    calls,
    now: () => new Date(now),
    exec: async (command, args) => {
      const line = [command, ...args].join(" ");
      calls.exec.push(line);
      return fakeExec(line, script.commands?.[line]);
    },
    sysinfo: fakeSysInfo(script.platform, script.sysinfo ?? {}),
    net: fakeNet(script.net ?? {}, calls),
    fs: fakeFs(script.files ?? {}, now.getTime()),
  };
}

function fakeExec(line: string, answer: string | FakeCommand | undefined): ExecResult {
  const base = { command: line, outputTruncated: false };
  if (answer === undefined) {
    return {
      ...base,
      exitCode: null,
      stdout: "",
      stderr: "",
      ok: false,
      notFound: true,
      timedOut: false,
      permissionDenied: false,
    };
  }
  const a: FakeCommand = typeof answer === "string" ? { stdout: answer } : answer;
  const exitCode = a.notFound ? null : (a.exitCode ?? (a.permissionDenied || a.timedOut ? 1 : 0));
  return {
    ...base,
    exitCode,
    stdout: a.stdout ?? "",
    stderr: a.stderr ?? "",
    ok: exitCode === 0,
    notFound: a.notFound ?? false,
    timedOut: a.timedOut ?? false,
    permissionDenied: a.permissionDenied ?? false,
  };
}

function fakeSysInfo(platform: Platform, s: Partial<FakeSysInfo>): SysInfo {
  return {
    osInfo: async () => s.osInfo ?? { ...UNKNOWN_OS, arch: "x64", hostname: "fake-host", platform },
    networkInterfaces: async () => s.networkInterfaces ?? [],
    defaultGateway: async () => s.defaultGateway ?? null,
    system: async () => s.system ?? { manufacturer: "", model: "", serial: "", virtual: false },
    cpu: async () => s.cpu ?? { brand: "", cores: 1 },
    memoryBytes: async () => s.memoryBytes ?? 0,
    blockDevices: async () => s.blockDevices ?? [],
    users: async () => s.users ?? [],
    processes: async () => s.processes ?? [],
    networkConnections: async () => s.networkConnections ?? [],
  };
}

const NOT_TLS: TlsProbeResult = {
  reachable: true,
  tls: false,
  versions: [],
  cipher: null,
  certificate: null,
  error: "ERR_SSL_WRONG_VERSION_NUMBER",
};

function fakeNet(n: NonNullable<FakeHostScript["net"]>, calls: FakeHostCalls): NetProbe {
  const open = new Set(n.open ?? []);
  const filtered = new Set(n.filtered ?? []);
  const rttMs = n.rttMs ?? 1;
  return {
    socketBudget: async () => n.socketBudget ?? 256,
    resolve: async (hostname) => n.dns?.[hostname] ?? [],
    connect: async (host, port, timeoutMs): Promise<ConnectResult> => {
      const key = `${host}:${port}`;
      calls.connect.push(key);
      if (open.has(key)) return { state: "open", rttMs };
      if (filtered.has(key)) return { state: "filtered", rttMs: timeoutMs };
      return { state: "closed", rttMs };
    },
    tlsProbe: async (host, port) => {
      const key = `${host}:${port}`;
      calls.tls.push(key);
      if (n.tls?.[key]) return n.tls[key];
      if (open.has(key)) return NOT_TLS;
      return { ...NOT_TLS, reachable: false, error: "ECONNREFUSED" };
    },
  };
}

function fakeFs(files: Readonly<Record<string, string | FakeFile>>, nowMs: number): HostFs {
  const entries = new Map(
    Object.entries(files).map(([path, f]) => {
      const file: FakeFile = typeof f === "string" ? { content: f } : f;
      const bytes = typeof file.content === "string" ? new TextEncoder().encode(file.content) : file.content;
      return [
        path,
        {
          bytes,
          mtimeMs: file.mtimeMs ?? nowMs,
          mode: file.mode ?? 0o100644,
          // A file that cannot be seen cannot be read either.
          readable: (file.readable ?? true) && file.searchable !== false,
          searchable: file.searchable ?? true,
        },
      ] as const;
    }),
  );
  const isDir = (path: string) => {
    const prefix = path.endsWith("/") ? path : `${path}/`;
    return [...entries.keys()].some((p) => p.startsWith(prefix));
  };
  return {
    readFile: async (path, maxBytes = 1024 * 1024) => {
      const e = entries.get(path);
      return e?.readable ? new TextDecoder().decode(e.bytes.subarray(0, maxBytes)) : null;
    },
    readBytes: async (path, maxBytes) => {
      const e = entries.get(path);
      return e?.readable ? e.bytes.subarray(0, maxBytes) : null;
    },
    exists: async (path) => (entries.has(path) && entries.get(path)!.searchable) || isDir(path),
    presence: async (path) => {
      const e = entries.get(path);
      if (e) return e.searchable ? "present" : "denied";
      return isDir(path) ? "present" : "absent";
    },
    stat: async (path) => {
      const e = entries.get(path);
      if (e) return { size: e.bytes.length, mtimeMs: e.mtimeMs, mode: e.mode, isDirectory: false };
      return isDir(path) ? { size: 0, mtimeMs: nowMs, mode: 0o40755, isDirectory: true } : null;
    },
    walk: async function* (root, options) {
      const prefix = root.endsWith("/") ? root : `${root}/`;
      let count = 0;
      for (const [path, e] of [...entries].sort(([a], [b]) => a.localeCompare(b))) {
        if (path !== root && !path.startsWith(prefix)) continue;
        const depth = path.slice(prefix.length).split("/").length - 1;
        if (depth > options.maxDepth) continue;
        if (options.signal?.aborted || count >= options.maxFiles) return;
        count++;
        yield { path, size: e.bytes.length, mtimeMs: e.mtimeMs };
      }
    },
  };
}

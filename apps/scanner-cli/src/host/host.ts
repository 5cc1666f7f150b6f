import type { HostIdentity } from "./identity.js";

/**
 * The only IO a phase may do goes through a Host. The real host wraps execa, systeminformation, sockets and the
 * filesystem; the fake host (tests) answers from fixtures. Every method degrades instead of throwing where the
 * machine simply lacks something (a missing command is a result with `notFound`, not an exception).
 */
export interface Host extends HostIdentity {
  /** True when running as root / Administrator (some checks need it; without it they report why). */
  readonly isPrivileged: boolean;
  exec(command: string, args: readonly string[], options?: ExecOptions): Promise<ExecResult>;
  readonly sysinfo: SysInfo;
  readonly net: NetProbe;
  readonly fs: HostFs;
  /** Wall clock; injected so tests are deterministic. */
  now(): Date;
}

export interface ExecOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Extra environment (LC_ALL=C is always set so outputs parse the same everywhere). */
  readonly env?: Readonly<Record<string, string>>;
  readonly maxOutputBytes?: number;
}

/** A finished command, successful or not (errors are results, as in execa's `reject: false`). */
export interface ExecResult {
  readonly command: string;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The command exited 0. */
  readonly ok: boolean;
  /** The executable does not exist on this machine. */
  readonly notFound: boolean;
  readonly timedOut: boolean;
  /** The command refused to run for lack of privileges (EACCES, "must be root", …). */
  readonly permissionDenied: boolean;
  /** Output went past `maxOutputBytes` and was cut there. */
  readonly outputTruncated: boolean;
}

/** The subset of systeminformation the phases use (see host/sysinfo.ts). */
export interface SysInfo {
  osInfo(): Promise<OsInfo>;
  networkInterfaces(): Promise<NetworkInterface[]>;
  defaultGateway(): Promise<string | null>;
  system(): Promise<{ manufacturer: string; model: string; serial: string; virtual: boolean }>;
  cpu(): Promise<{ brand: string; cores: number }>;
  memoryBytes(): Promise<number>;
  blockDevices(): Promise<BlockDevice[]>;
  users(): Promise<{ user: string; tty: string; date: string }[]>;
  processes(): Promise<ProcessInfo[]>;
  networkConnections(): Promise<NetworkConnection[]>;
}

export interface OsInfo {
  readonly platform: string;
  readonly distro: string;
  readonly release: string;
  readonly codename: string;
  readonly kernel: string;
  readonly arch: string;
  readonly hostname: string;
  readonly build: string;
}

/** What is known when the operating system cannot be read: every field empty. */
export const UNKNOWN_OS: OsInfo = {
  platform: "",
  distro: "",
  release: "",
  codename: "",
  kernel: "",
  arch: "",
  hostname: "",
  build: "",
};

export interface NetworkInterface {
  readonly iface: string;
  readonly ip4: string;
  readonly ip4subnet: string;
  readonly ip6: string;
  readonly mac: string;
  readonly internal: boolean;
  readonly virtual: boolean;
  readonly operstate: string;
}

export interface BlockDevice {
  readonly name: string;
  readonly type: string;
  readonly fsType: string;
  readonly mount: string;
  readonly size: number;
  readonly removable: boolean;
  readonly label: string;
}

export interface ProcessInfo {
  readonly pid: number;
  readonly name: string;
  readonly command: string;
  readonly user: string;
}

export interface NetworkConnection {
  readonly protocol: string;
  readonly localAddress: string;
  readonly localPort: string;
  readonly peerAddress: string;
  readonly peerPort: string;
  readonly state: string;
  readonly pid: number;
  readonly process: string;
}

export type PortState = "open" | "closed" | "filtered";

export interface ConnectResult {
  readonly state: PortState;
  readonly rttMs: number;
  /**
   * The probe could not be made for a local reason (out of file descriptors or ephemeral ports), so the state
   * says nothing about the target: retry it later with fewer sockets in flight.
   */
  readonly localFailure?: boolean;
}

export interface NetProbe {
  /** How many sockets a scanner may hold open at once here (a share of the open-file limit). */
  socketBudget(): Promise<number>;
  /** Addresses of a host name (A and AAAA); empty when it does not resolve. */
  resolve(hostname: string): Promise<string[]>;
  /** TCP connect to host:port; `filtered` when nothing answers before the timeout. */
  connect(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<ConnectResult>;
  /** TLS handshake facts of host:port (never sends application data). */
  tlsProbe(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<TlsProbeResult>;
}

export interface TlsProbeResult {
  readonly reachable: boolean;
  readonly tls: boolean;
  /** Protocol versions the server accepted, e.g. ["TLSv1.2", "TLSv1.3"]. */
  readonly versions: readonly string[];
  readonly cipher: string | null;
  readonly certificate: {
    readonly subject: string;
    readonly issuer: string;
    readonly validFrom: string;
    readonly validTo: string;
    readonly keyBits: number | null;
    readonly selfSigned: boolean;
    readonly sha256: string;
  } | null;
  readonly error: string | null;
}

export interface HostFs {
  readFile(path: string, maxBytes?: number): Promise<string | null>;
  readBytes(path: string, maxBytes: number): Promise<Uint8Array | null>;
  exists(path: string): Promise<boolean>;
  /**
   * Whether a path is there: `denied` when this run may not even look (a directory on the way it may not search, as
   * Debian's 2770 /etc/redis without root), which `exists` cannot tell from `absent`.
   */
  presence(path: string): Promise<"present" | "absent" | "denied">;
  /** Walks a directory tree depth-first, yielding regular files; never follows symlinks out of the tree. */
  walk(
    root: string,
    options: { maxFiles: number; maxDepth: number; signal?: AbortSignal },
  ): AsyncIterable<{ path: string; size: number; mtimeMs: number }>;
  stat(path: string): Promise<{ size: number; mtimeMs: number; mode: number; isDirectory: boolean } | null>;
}

import { lookup } from "node:dns/promises";
import { readFile } from "node:fs/promises";
import { runCommand } from "./exec.js";
import type { NetProbe } from "./host.js";
import { tcpConnect } from "./net-connect.js";
import { probeTls } from "./net-tls.js";
import { IS_LINUX, IS_WINDOWS } from "./platform.js";
import { createProbeEngine, type ProbeEngine, type ProbeEngineOptions } from "./probe-engine.js";

/** Never hold more sockets than this, whatever the limit: past it loopback and LAN scans get no faster. */
const MAX_SOCKET_BUDGET = 4096;
const MIN_SOCKET_BUDGET = 16;
/** Descriptors kept back for the rest of the process (logs, config, child processes, the upload). */
const RESERVED_DESCRIPTORS = 128;
/** Windows has no per-process descriptor limit for sockets; its bound is the ephemeral port range. */
const WINDOWS_SOCKET_BUDGET = 2048;

/** The real network probe and, when libuv's TCP handle is usable here, the engine behind its `connect`. */
export interface RealNetProbe extends NetProbe {
  readonly engine: ProbeEngine | null;
}

/**
 * The real network probe: node:net, node:tls and node:dns only. TCP connects go through one probe engine
 * (host/probe-engine.ts) on libuv's TCP handle, or through net.Socket where that handle is not usable.
 */
export function createNetProbe(options: ProbeEngineOptions = {}): RealNetProbe {
  let budget: Promise<number> | undefined;
  const engine = createProbeEngine(options);
  const connect = engine?.connect ?? tcpConnect;
  return {
    engine,
    socketBudget: () => {
      budget ??= readSocketBudget();
      return budget;
    },
    resolve: async (hostname) => {
      try {
        return (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
      } catch {
        return [];
      }
    },
    connect,
    tlsProbe: probeTls,
  };
}

/** How this run's TCP probes were made, for --verbose; null when none was made (or none through the engine). */
export function probeEngineSummary(net: RealNetProbe): string | null {
  if (net.engine === null) return "TCP probes used net.Socket (libuv's TCP handle is not usable on this Node)";
  const s = net.engine.stats();
  if (s.localProbes + s.helperProbes === 0) return null;
  const helper =
    s.helpersStarted === 0
      ? "no probe helper needed"
      : `${s.helperProbes} in the probe helper${s.helperError ? ` (${s.helperError}; ${s.requeued} made again here)` : ""}`;
  return `TCP probes: ${s.localProbes} in this process, ${helper}`;
}

async function readSocketBudget(): Promise<number> {
  if (IS_WINDOWS) return WINDOWS_SOCKET_BUDGET;
  const limit = IS_LINUX ? await linuxOpenFileLimit() : await shellOpenFileLimit();
  if (limit === null) return 256;
  return Math.max(MIN_SOCKET_BUDGET, Math.min(MAX_SOCKET_BUDGET, Math.floor((limit - RESERVED_DESCRIPTORS) / 2)));
}

async function linuxOpenFileLimit(): Promise<number | null> {
  try {
    const text = await readFile("/proc/self/limits", "utf8");
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(text);
    if (!m) return null;
    return m[1] === "unlimited" ? MAX_SOCKET_BUDGET * 2 : Number(m[1]);
  } catch {
    return null;
  }
}

/** macOS has no /proc: ask a shell, which inherits this process's (already raised) limit. */
async function shellOpenFileLimit(): Promise<number | null> {
  const r = await runCommand("/bin/sh", ["-c", "ulimit -n"], { timeoutMs: 5_000 });
  const value = r.stdout.trim();
  if (value === "unlimited") return MAX_SOCKET_BUDGET * 2;
  const n = Number(value);
  return r.ok && Number.isInteger(n) && n > 0 ? n : null;
}

import { runCommand } from "./exec.js";
import { createHostFs } from "./fs.js";
import type { Host } from "./host.js";
import { realHostIdentity } from "./identity.js";
import { createNetProbe, type RealNetProbe } from "./net.js";
import { IS_WINDOWS } from "./platform.js";
import type { ProbeEngineOptions } from "./probe-engine.js";
import { createSysInfo } from "./sysinfo.js";

/** The real host, whose network probe reports how its probes were made. */
export interface RealHost extends Host {
  readonly net: RealNetProbe;
}

/**
 * The host the scanner runs on. Privilege is decided once: uid 0 on POSIX; on Windows, `net session` succeeds only
 * in an elevated shell (the usual check that needs no native module). `net`: probe engine options (benchmarks run
 * the helper as built).
 */
export async function createRealHost(options: { readonly net?: ProbeEngineOptions } = {}): Promise<RealHost> {
  return {
    ...realHostIdentity(),
    isPrivileged: await detectPrivilege(),
    exec: runCommand,
    sysinfo: createSysInfo(),
    // The probe helper process starts at the first busy moment (more probes in flight than one process keeps):
    // scans of a few hosts never need it and keep its ~45 MB; large scans pay its start-up once
    // (docs/performance.md#the-scanner).
    net: createNetProbe({ prewarm: false, ...options.net }),
    fs: createHostFs(),
    now: () => new Date(),
  };
}

async function detectPrivilege(): Promise<boolean> {
  if (IS_WINDOWS) return (await runCommand("net", ["session"], { timeoutMs: 10_000 })).ok;
  return process.getuid?.() === 0;
}

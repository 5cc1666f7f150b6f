import { runCommand } from "./exec.js";
import { createHostFs } from "./fs.js";
import type { Host } from "./host.js";
import { createNetProbe } from "./net.js";
import { currentPlatform, IS_WINDOWS } from "./platform.js";
import { createSysInfo } from "./sysinfo.js";

/**
 * The host the scanner runs on. Privilege is decided once: uid 0 on POSIX; on Windows, `net session` succeeds only
 * in an elevated shell (the usual check that needs no native module).
 */
export async function createRealHost(): Promise<Host> {
  const platform = currentPlatform();
  return {
    platform,
    isPrivileged: await detectPrivilege(),
    exec: runCommand,
    sysinfo: createSysInfo(),
    // The probe helper process starts at the first busy moment (more probes in flight than one process keeps):
    // scans of a few hosts never need it and keep its ~45 MB; large scans pay its start-up once (docs/performance.md).
    net: createNetProbe({ prewarm: false }),
    fs: createHostFs(),
    now: () => new Date(),
  };
}

async function detectPrivilege(): Promise<boolean> {
  if (IS_WINDOWS) return (await runCommand("net", ["session"], { timeoutMs: 10_000 })).ok;
  return process.getuid?.() === 0;
}

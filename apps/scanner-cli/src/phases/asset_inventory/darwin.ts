import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { type InstalledSoftware, parseSystemProfilerApplications } from "./parse.js";

/** system_profiler walks every application bundle on the disks; a full Mac takes tens of seconds. */
const SYSTEM_PROFILER_TIMEOUT_MS = 150_000;

/** Installed applications as System Information lists them (no root needed). */
export async function darwinSoftware(host: Host, signal: AbortSignal): Promise<Reading<InstalledSoftware>> {
  const r = await host.exec("system_profiler", ["SPApplicationsDataType"], {
    signal,
    timeoutMs: SYSTEM_PROFILER_TIMEOUT_MS,
  });
  const problem = commandUnavailable(r);
  if (problem) return problem;
  const apps = parseSystemProfilerApplications(r.stdout);
  return apps.length > 0 || r.ok
    ? { source: "system_profiler", packages: apps }
    : unparsed(`system_profiler failed: ${r.stderr.trim().slice(0, 200)}`);
}

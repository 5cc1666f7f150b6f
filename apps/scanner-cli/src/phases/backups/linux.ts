import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { parseTimeshiftList } from "./parse.js";
import type { NativeBackupRecord } from "./record.js";

/**
 * timeshift's snapshot list (root only), read when timeshift is installed. restic and Borg keep their catalogues in
 * repositories that need the repository password, which the scanner does not hold, so they are recognised but
 * their last backup is not read.
 */
export async function timeshiftRecord(host: Host, signal: AbortSignal): Promise<NativeBackupRecord | string> {
  const r = await host.exec("timeshift", ["--list"], { signal });
  const problem = unusableOutput(r);
  if (problem) return problem;
  const snapshots = parseTimeshiftList(r.stdout);
  if (snapshots === null) return "timeshift printed no snapshot list (it needs root)";
  return {
    source: "timeshift",
    configured: true,
    lastBackupAt: snapshots[snapshots.length - 1] ?? null,
    count: snapshots.length,
  };
}

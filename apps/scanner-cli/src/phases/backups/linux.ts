import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { parseTimeshiftList } from "./parse.js";
import type { NativeBackupRecord } from "./record.js";

/**
 * timeshift's snapshot list (root only), read when timeshift is installed. restic and Borg keep their catalogues in
 * repositories that need the repository password, which the scanner does not hold, so they are recognised but
 * their last backup is not read. Null where timeshift is not installed.
 */
export async function timeshiftRecord(host: Host, signal: AbortSignal): Promise<Reading<NativeBackupRecord | null>> {
  const r = await host.exec("timeshift", ["--list"], { signal });
  const problem = commandUnavailable(r);
  // Not installed: no native record to read (restic, Borg and the like are recognised from the inventory).
  if (problem?.kind === "not_found") return null;
  if (problem) return problem;
  const snapshots = parseTimeshiftList(r.stdout);
  if (snapshots === null) return unparsed("timeshift printed no snapshot list (it needs root)");
  return {
    source: "timeshift",
    configured: true,
    lastBackupAt: snapshots[snapshots.length - 1] ?? null,
    count: snapshots.length,
  };
}

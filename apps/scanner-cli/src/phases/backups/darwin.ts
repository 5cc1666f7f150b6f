import type { Host } from "../../host/host.js";
import { commandUnavailable, unusableOutput } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { parseTmutilDestinations, parseTmutilLatestBackup } from "./parse.js";
import type { NativeBackupRecord } from "./record.js";

const LATEST_UNAVAILABLE = {
  full_disk_access: "tmutil latestbackup needs Full Disk Access for the program running the scan",
  destination_not_mounted: "the backup disk is not connected, so the latest backup could not be read",
} as const;

/** Time Machine destinations and the newest backup (tmutil answers with text, not exit codes, so the text decides). */
export async function timeMachineRecord(host: Host, signal: AbortSignal): Promise<Reading<NativeBackupRecord>> {
  const info = await host.exec("tmutil", ["destinationinfo"], { signal });
  const problem = commandUnavailable(info);
  if (problem) return problem;
  const destinations = parseTmutilDestinations(`${info.stdout}\n${info.stderr}`);
  if (destinations === null) return unparsed("tmutil destinationinfo printed an unexpected answer");
  if (destinations.length === 0) return { source: "time_machine", configured: false, lastBackupAt: null };
  const latest = await host.exec("tmutil", ["latestbackup"], { signal });
  const answer = unusableOutput(latest) ? null : parseTmutilLatestBackup(`${latest.stdout}\n${latest.stderr}`);
  const base = { source: "time_machine" as const, configured: true, destinations: destinations.map((d) => d.kind) };
  if (answer && "at" in answer) return { ...base, lastBackupAt: answer.at };
  return {
    ...base,
    lastBackupAt: null,
    unavailable: answer
      ? LATEST_UNAVAILABLE[answer.problem]
      : (unusableOutput(latest) ?? "tmutil latestbackup named no backup"),
  };
}

import type { Host } from "../../host/host.js";
import { commandUnavailable, unusableOutput } from "../shared/command.js";
import { parseTmutilDestinations, parseTmutilLatestBackup } from "./parse.js";
import { type BackupReading, combineReadings, type TargetKind, type ToolRecord, type UnreadTool } from "./record.js";
import { borgRecord, resticRecord } from "./repositories.js";

const LATEST_UNAVAILABLE = {
  full_disk_access: "tmutil latestbackup needs Full Disk Access for the program running the scan",
  destination_not_mounted: "the backup disk is not connected, so the latest backup could not be read",
} as const;

/** The backup tools of a Mac: Time Machine, and restic or Borg (from Homebrew). */
export async function darwinBackups(host: Host, signal: AbortSignal): Promise<BackupReading> {
  return combineReadings(
    await Promise.all([timeMachineRecord(host, signal), resticRecord(host, signal), borgRecord(host, signal)]),
  );
}

const kindOf = (kind: string): TargetKind => (/^network$/i.test(kind) ? "network_share" : "local_disk");

/**
 * Time Machine destinations and the newest backup (tmutil answers with text, not exit codes, so the text decides).
 * Every Mac has tmutil: one that cannot be read leaves Time Machine's state not established.
 */
export async function timeMachineRecord(host: Host, signal: AbortSignal): Promise<ToolRecord | UnreadTool> {
  const info = await host.exec("tmutil", ["destinationinfo"], { signal });
  const problem = commandUnavailable(info);
  if (problem) return { tool: "time_machine", message: problem.message, kind: problem.kind };
  const destinations = parseTmutilDestinations(`${info.stdout}\n${info.stderr}`);
  if (destinations === null)
    return { tool: "time_machine", message: "tmutil destinationinfo printed an unexpected answer" };
  if (destinations.length === 0) return { tool: "time_machine", configured: false, lastBackupAt: null };
  const latest = await host.exec("tmutil", ["latestbackup"], { signal });
  const answer = unusableOutput(latest) ? null : parseTmutilLatestBackup(`${latest.stdout}\n${latest.stderr}`);
  const base = {
    tool: "time_machine" as const,
    configured: true,
    destinations: [...new Set(destinations.map((d) => kindOf(d.kind)))],
  };
  if (answer && "at" in answer) return { ...base, lastBackupAt: answer.at };
  return {
    ...base,
    lastBackupAt: null,
    unavailable: answer
      ? LATEST_UNAVAILABLE[answer.problem]
      : (unusableOutput(latest) ?? "tmutil latestbackup named no backup"),
  };
}

import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { parseWbadminTargets, parseWbadminVersions } from "./parse.js";
import { type BackupReading, combineReadings, type ToolRecord, type UnreadTool } from "./record.js";
import { resticRecord } from "./repositories.js";

/**
 * The backup tools of a Windows machine whose records the scanner can read: Windows Server Backup and restic.
 * Veeam Agent for Windows, Acronis and Datto keep their job history in their own databases or logs, of which no
 * readable capture was found (phases/FIXTURES.md): they are recognised from the installed programs only.
 */
export async function windowsBackups(host: Host, signal: AbortSignal): Promise<BackupReading> {
  return combineReadings(await Promise.all([windowsBackupRecord(host, signal), resticRecord(host, signal)]));
}

/**
 * Windows Server Backup / "Backup and Restore (Windows 7)" versions from wbadmin, which needs an elevated scan.
 * wbadmin ships with Windows: one that cannot be read leaves the system's own backup not established.
 */
export async function windowsBackupRecord(host: Host, signal: AbortSignal): Promise<ToolRecord | UnreadTool> {
  const r = await host.exec("wbadmin", ["get", "versions"], { signal });
  const problem = commandUnavailable(r);
  if (problem) return { tool: "windows_server_backup", message: problem.message, kind: problem.kind };
  // With no backup wbadmin prints a (translated) message and no version identifier; the identifiers decide.
  const versions = parseWbadminVersions(r.stdout);
  const targets = parseWbadminTargets(r.stdout);
  return {
    tool: "windows_server_backup",
    configured: versions.length > 0,
    lastBackupAt: versions.at(-1) ?? null,
    count: versions.length,
    ...(targets.length > 0 ? { destinations: targets } : {}),
  };
}

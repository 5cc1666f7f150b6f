import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import type { Reading } from "../shared/unavailable.js";
import { parseWbadminVersions } from "./parse.js";
import type { NativeBackupRecord } from "./record.js";

/**
 * Windows Server Backup / "Backup and Restore (Windows 7)" versions from wbadmin, which needs an elevated scan.
 * Third-party agents (Veeam, Acronis, …) keep their own catalogues; they are recognised from the inventory only.
 */
export async function windowsBackupRecord(host: Host, signal: AbortSignal): Promise<Reading<NativeBackupRecord>> {
  const r = await host.exec("wbadmin", ["get", "versions"], { signal });
  const problem = commandUnavailable(r);
  if (problem) return problem;
  // With no backup wbadmin prints a (translated) message and no version identifier; the identifiers decide.
  const versions = parseWbadminVersions(r.stdout);
  return {
    source: "windows_server_backup",
    configured: versions.length > 0,
    lastBackupAt: versions[versions.length - 1] ?? null,
    count: versions.length,
  };
}

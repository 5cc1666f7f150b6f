import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { borgProblem, parseBorgList, parseResticSnapshots, resticProblem } from "./parse-repositories.js";
import type { ToolRecord, UnreadTool } from "./record.js";

/**
 * restic and Borg keep their catalogues in the repository, behind its password. The scanner holds neither: it runs
 * the tool with the environment it was started with, so a scan run with the backup job's own variables
 * (RESTIC_REPOSITORY and RESTIC_PASSWORD_FILE, BORG_REPO and BORG_PASSCOMMAND) reads the listing, and one run
 * without them says so. stdin is closed, so neither can wait at a password prompt. Null: the tool is not installed.
 */
export async function resticRecord(host: Host, signal: AbortSignal): Promise<ToolRecord | UnreadTool | null> {
  const r = await host.exec("restic", ["snapshots", "--json", "--no-lock"], { signal, timeoutMs: 60_000 });
  const problem = commandUnavailable(r);
  if (problem?.kind === "not_found") return null;
  if (problem) return { tool: "restic", message: problem.message };
  const snapshots = r.ok ? parseResticSnapshots(r.stdout) : null;
  if (snapshots === null) return { tool: "restic", message: resticProblem(r.stderr) };
  return {
    tool: "restic",
    configured: true,
    lastBackupAt: snapshots.at(-1) ?? null,
    count: snapshots.length,
  };
}

export async function borgRecord(host: Host, signal: AbortSignal): Promise<ToolRecord | UnreadTool | null> {
  const r = await host.exec("borg", ["list", "--json"], { signal, timeoutMs: 60_000 });
  const problem = commandUnavailable(r);
  if (problem?.kind === "not_found") return null;
  if (problem) return { tool: "borg", message: problem.message };
  const listing = r.ok ? parseBorgList(r.stdout) : null;
  if (listing === null) return { tool: "borg", message: borgProblem(r.stderr) };
  return {
    tool: "borg",
    configured: true,
    lastBackupAt: listing.starts.at(-1) ?? null,
    count: listing.starts.length,
    destinations: [listing.target],
  };
}

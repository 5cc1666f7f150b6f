import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { parseTimeshiftList } from "./parse.js";
import { parseRsnapshotLog, parseRsnapshotLogfile } from "./parse-rsnapshot.js";
import { parseVeeamSessionList } from "./parse-veeam.js";
import { type BackupReading, combineReadings, type ToolRecord, type UnreadTool } from "./record.js";
import { borgRecord, resticRecord } from "./repositories.js";

/** The backup tools of a Linux machine: timeshift, Veeam Agent for Linux, rsnapshot, restic and Borg. */
export async function linuxBackups(host: Host, signal: AbortSignal): Promise<BackupReading> {
  return combineReadings(
    await Promise.all([
      timeshiftRecord(host, signal),
      veeamRecord(host, signal),
      rsnapshotRecord(host, signal),
      resticRecord(host, signal),
      borgRecord(host, signal),
    ]),
  );
}

/** timeshift's snapshot list (root only). Null where timeshift is not installed. */
export async function timeshiftRecord(host: Host, signal: AbortSignal): Promise<ToolRecord | UnreadTool | null> {
  const r = await host.exec("timeshift", ["--list"], { signal });
  const problem = commandUnavailable(r);
  if (problem?.kind === "not_found") return null;
  if (problem) return { tool: "timeshift", message: problem.message, kind: problem.kind };
  const snapshots = parseTimeshiftList(r.stdout);
  if (snapshots === null)
    return { tool: "timeshift", message: "timeshift printed no snapshot list (it needs root)", kind: "permission" };
  return {
    tool: "timeshift",
    configured: true,
    lastBackupAt: snapshots.at(-1) ?? null,
    count: snapshots.length,
  };
}

/**
 * Veeam Agent for Linux's sessions (`veeamconfig session list`, root): the newest backup session that succeeded
 * (or finished with warnings: its restore point exists), and the newest finished restore session with how long it
 * took. Null where the agent is not installed.
 */
export async function veeamRecord(host: Host, signal: AbortSignal): Promise<ToolRecord | UnreadTool | null> {
  const r = await host.exec("veeamconfig", ["session", "list"], { signal });
  const problem = commandUnavailable(r);
  if (problem?.kind === "not_found") return null;
  if (problem) return { tool: "veeam", message: problem.message, kind: problem.kind };
  const sessions = parseVeeamSessionList(r.stdout);
  if (sessions === null) return { tool: "veeam", message: "veeamconfig printed no session list" };
  const backups = sessions.filter((s) => s.kind === "backup" && (s.state === "success" || s.state === "warning"));
  const restores = sessions.filter((s) => s.kind === "restore" && s.finishedAt !== null);
  const latest = restores.at(-1);
  return {
    tool: "veeam",
    configured: sessions.some((s) => s.kind === "backup"),
    lastBackupAt: backups.at(-1)?.startedAt ?? null,
    count: backups.length,
    restores: {
      count: restores.length,
      latest: latest
        ? {
            at: latest.startedAt,
            durationMinutes: Math.round((latest.finishedAt!.getTime() - latest.startedAt.getTime()) / 60_000),
            succeeded: latest.state === "success" || latest.state === "warning",
          }
        : null,
    },
  };
}

const RSNAPSHOT_CONF = "/etc/rsnapshot.conf";
/** Enough of the log for weeks of daily runs; the newest lines are what matter. */
const RSNAPSHOT_LOG_LINES = "5000";

/**
 * rsnapshot's runs, from the log its configuration names (`logfile`): the newest completed run. rsnapshot copies
 * into a local snapshot root, so its target is a local disk (or a mount of one). Null where it is not configured.
 */
export async function rsnapshotRecord(host: Host, signal: AbortSignal): Promise<ToolRecord | UnreadTool | null> {
  const conf = await host.fs.readFile(RSNAPSHOT_CONF);
  if (conf === null) {
    if (!(await host.fs.exists(RSNAPSHOT_CONF))) return null;
    return {
      tool: "rsnapshot",
      message: `${RSNAPSHOT_CONF} could not be read (run the scanner as root)`,
      kind: "permission",
    };
  }
  const logfile = parseRsnapshotLogfile(conf);
  if (logfile === null)
    return {
      tool: "rsnapshot",
      message: `rsnapshot keeps no log (no logfile directive in ${RSNAPSHOT_CONF}), so its last run could not be read`,
    };
  const tail = await host.exec("tail", ["-n", RSNAPSHOT_LOG_LINES, logfile], { signal });
  const problem = commandUnavailable(tail);
  if (problem) return { tool: "rsnapshot", message: problem.message, kind: problem.kind };
  if (!tail.ok)
    return {
      tool: "rsnapshot",
      message: "rsnapshot's log could not be read (run the scanner as root)",
      kind: "permission",
    };
  const runs = parseRsnapshotLog(tail.stdout);
  return {
    tool: "rsnapshot",
    configured: true,
    lastBackupAt: runs?.completed.at(-1) ?? null,
    count: runs?.completed.length ?? 0,
    destinations: ["local_disk"],
  };
}

import type { UnavailableKind } from "../shared/unavailable.js";
/** The backup tools whose own records the scanner reads (agents it only recognises by name are in agents.ts). */
export type BackupTool =
  | "time_machine"
  | "windows_server_backup"
  | "timeshift"
  | "restic"
  | "borg"
  | "rsnapshot"
  | "veeam";

/** Where a tool writes its backups, by kind only: never the path, share or host name. */
export type TargetKind = "local_disk" | "removable_disk" | "network_share" | "remote_ssh" | "optical" | "network";

/** A restore the tool recorded (Veeam Agent's restore sessions). */
export interface RecordedRestore {
  readonly at: Date;
  readonly durationMinutes: number;
  readonly succeeded: boolean;
}

/** What one backup tool on this machine says about its backups (and, for tools that keep them, its restores). */
export interface ToolRecord {
  readonly tool: BackupTool;
  /** A destination or job is set up, or at least one backup exists. */
  readonly configured: boolean;
  /** Start of the newest completed backup, null when there is none or it could not be read. */
  readonly lastBackupAt: Date | null;
  /** Why the newest backup could not be read, when `configured` and `lastBackupAt` is null. */
  readonly unavailable?: string;
  /** Destinations by kind. */
  readonly destinations?: readonly TargetKind[];
  /** How many completed backups the tool lists. */
  readonly count?: number;
  /**
   * Restores, for a tool whose record includes them: the newest finished one (null when none is recorded). Absent
   * for a tool that keeps no record of restores.
   */
  readonly restores?: { readonly latest: RecordedRestore | null; readonly count: number };
}

/** A tool that is on this machine (or should be) but whose record could not be read, and why. */
export interface UnreadTool {
  readonly tool: BackupTool;
  readonly message: string;
  /** Why, when known: `permission` when the record needs privileges this run lacks (a privilege gap). */
  readonly kind?: UnavailableKind;
}

/** Everything one platform's reader found: the tools it read, and those it could not. */
export interface BackupReading {
  readonly records: readonly ToolRecord[];
  readonly unread: readonly UnreadTool[];
}

/** The reading of several tool readers, each answering a record, nothing (not installed) or why it failed. */
export function combineReadings(parts: readonly (ToolRecord | UnreadTool | null)[]): BackupReading {
  const records: ToolRecord[] = [];
  const unread: UnreadTool[] = [];
  for (const p of parts) {
    if (p === null) continue;
    if ("message" in p) unread.push(p);
    else records.push(p);
  }
  return { records, unread };
}

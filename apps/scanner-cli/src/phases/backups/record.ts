/** What a machine's own backup tool says about its backups. */
export interface NativeBackupRecord {
  readonly source: "time_machine" | "windows_server_backup" | "timeshift";
  /** A destination is set up or at least one backup exists. */
  readonly configured: boolean;
  /** Start of the newest completed backup, null when there is none or it could not be read. */
  readonly lastBackupAt: Date | null;
  /** Why the newest backup could not be read, when `configured` and `lastBackupAt` is null. */
  readonly unavailable?: string;
  /** Destinations by kind (Time Machine). */
  readonly destinations?: readonly string[];
  /** How many backups the tool lists (wbadmin, timeshift). */
  readonly count?: number;
}

import { z } from "zod";

/**
 * The backups phase's verdict on one machine, as its facts carry it (`readiness`) and the server reads it for
 * requirement 6 (docs/scoring.md §9): judged by the scanner at the scan, from what the machine's backup tools record.
 * Counts, dates, tool names and target kinds only: never a path, a repository address or a file name.
 */

/** How long a backup stays recent (the backups phase's `backup_stale` threshold). */
export const MAX_BACKUP_AGE_HOURS = 48;

/** A restore test must be at most this old to count, and must have taken less than RESTORE_DEADLINE_HOURS. */
export const RESTORE_TEST_MAX_AGE_MONTHS = 12;
export const RESTORE_DEADLINE_HOURS = 72;

/**
 * The newest backup any tool on the machine recorded:
 * - `recent`: completed within {@link MAX_BACKUP_AGE_HOURS};
 * - `stale`: the newest is older;
 * - `never_completed`: a tool is set up but lists no completed backup;
 * - `none`: no backup tool at all, and every read that would have found one worked;
 * - `not_established`: a tool is there (or may be) but its record could not be read.
 */
export const BACKUP_STATES = ["recent", "stale", "never_completed", "none", "not_established"] as const;
export type BackupState = (typeof BACKUP_STATES)[number];

export const BackupReadinessSchema = z.object({
  /** This machine holds ePHI: ePHI software installed or suspected ePHI files found (the same rule as the encryption cap). */
  ephi_bearing: z.boolean(),
  backup: z.object({
    state: z.enum(BACKUP_STATES),
    /** The tool whose record decided (`restic`, `time_machine`…), null when none did. */
    tool: z.string().nullable(),
    at: z.iso.datetime().nullable(),
    age_hours: z.int().min(0).nullable(),
  }),
  /** The newest restore a tool on this machine recorded (Veeam Agent's restore sessions), null when none is. */
  restore: z
    .object({
      tool: z.string(),
      at: z.iso.datetime(),
      duration_minutes: z.int().min(0),
      succeeded: z.boolean(),
    })
    .nullable(),
  /** Tools on this machine whose records include restores (whether or not one is recorded). */
  restore_records_kept_by: z.array(z.string()),
});
export type BackupReadiness = z.infer<typeof BackupReadinessSchema>;

/** The backups phase's facts key that holds {@link BackupReadinessSchema}. */
export const BACKUP_READINESS_FACT = "readiness";

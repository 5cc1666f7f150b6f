import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { CalendarDateSchema } from "../administrative/calendar-date.js";

/** A restore test's result: the data came back usable, or it did not. */
export const RESTORE_OUTCOMES = ["succeeded", "failed"] as const;

/** At most a year of restoring: a longer figure is a typo, not a restore. */
const MAX_MINUTES = 366 * 24 * 60;
/** Names and descriptions of systems and data, never of patients (HCS keeps no PHI). */
const Text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "no control characters");

const RestoreTestFields = {
  /** The day the restore was tested (YYYY-MM-DD); not in the future. */
  tested_on: CalendarDateSchema,
  /**
   * The system whose backup was restored: a scanner host's name (`ehr-server`) for the test to count for that host,
   * or another system's name (a hosted EHR).
   */
  system: Text(200),
  /** What was restored, described without patient information ("EHR database and scanned documents"). */
  data_restored: Text(500),
  /** From the start of the restore to the data being usable again, in minutes. */
  time_to_restore_minutes: z.int().min(1).max(MAX_MINUTES),
  outcome: z.enum(RESTORE_OUTCOMES).default("succeeded"),
};

export const RecordRestoreTestInputSchema = z.strictObject({ npi: NpiSchema.optional(), ...RestoreTestFields });
export type RecordRestoreTestInput = z.output<typeof RecordRestoreTestInputSchema>;

export const ListRestoreTestsInputSchema = z.strictObject({ npi: NpiSchema.optional() });

export const RestoreTestViewSchema = z
  .object({
    id: z.string().regex(/^rst_[0-9a-f]{16}$/),
    npi: z.string(),
    tested_on: z.string(),
    system: z.string(),
    data_restored: z.string(),
    time_to_restore_minutes: z.int(),
    outcome: z.enum(RESTORE_OUTCOMES),
    recorded_at: z.iso.datetime(),
    /** Tested within the last 12 months, as of the answer. */
    current: z.boolean(),
    /** Restored in less than 72 hours. */
    within_72_hours: z.boolean(),
  })
  .meta({ id: "RestoreTest", description: "A restore test of one system, as the practice recorded it" });
export type RestoreTestView = z.infer<typeof RestoreTestViewSchema>;

export const RestoreTestListSchema = z
  .object({ npi: z.string(), restore_tests: z.array(RestoreTestViewSchema) })
  .meta({ id: "RestoreTestList", description: "The practice's restore tests, most recent first" });

import {
  type FindingParsed,
  findingId,
  phaseDescriptor,
  RESTORE_DEADLINE_HOURS,
  RESTORE_TEST_MAX_AGE_MONTHS,
} from "@hcs/protocol";
import { addYears } from "../administrative/calendar-date.js";

/**
 * The rules of restore readiness (docs/scoring.md §9), pure: which restore test counts for a system, what it shows,
 * and the findings a scanner host that holds ePHI gets from it. Every figure is the protocol's
 * (RESTORE_TEST_MAX_AGE_MONTHS, RESTORE_DEADLINE_HOURS).
 */

/** One restore test of one system, from the practice's records or from a backup tool's own record (Veeam). */
export interface RestoreTest {
  readonly source: "record" | "scanner";
  /** The record's id, or the tool whose record it is. */
  readonly ref: string;
  /** YYYY-MM-DD. */
  readonly tested_on: string;
  readonly minutes: number;
  readonly succeeded: boolean;
}

/** What a system's latest restore test within 12 months shows. */
export type RestoreVerdict = "tested" | "not_tested" | "failed" | "over_72_hours";

/** A system's name as scanner hosts are matched against it: lower case, its first DNS label. */
export const systemKey = (name: string): string => name.trim().toLowerCase().split(".")[0] ?? "";

const deadlineMinutes = RESTORE_DEADLINE_HOURS * 60;

/** The latest test within the window (12 months, counted on the calendar, to `today`), or null. */
export function latestTest(tests: readonly RestoreTest[], today: string): RestoreTest | null {
  const from = addYears(today, -RESTORE_TEST_MAX_AGE_MONTHS / 12);
  return (
    tests
      .filter((t) => t.tested_on >= from && t.tested_on <= today)
      .sort((a, b) => b.tested_on.localeCompare(a.tested_on) || Number(b.succeeded) - Number(a.succeeded))[0] ?? null
  );
}

export function verdictOf(latest: RestoreTest | null): RestoreVerdict {
  if (!latest) return "not_tested";
  if (!latest.succeeded) return "failed";
  return latest.minutes < deadlineMinutes ? "tested" : "over_72_hours";
}

const BACKUPS = phaseDescriptor("backups");
/** The restore findings' controls: disaster recovery plan and its testing. */
const RESTORE_CONTROLS = ["164.308(a)(7)(ii)(B)", "164.308(a)(7)(ii)(D)"] as const;
/** The check ids of the findings below: the server derives them, a re-evaluation replaces exactly these. */
export const RESTORE_CHECKS: ReadonlySet<string> = new Set([
  "backups.restore_not_tested",
  "backups.restore_test_failed",
  "backups.restore_over_72_hours",
]);

const hours = (minutes: number) => Math.round((minutes / 60) * 10) / 10;
const sourceWords = (t: RestoreTest) =>
  t.source === "record" ? `the practice's restore-test record ${t.ref}` : `${t.ref}'s own record of the restore`;

/**
 * The finding a scanner host that holds ePHI gets from its latest restore test within 12 months (none when the
 * test succeeded in under 72 hours): untested is medium (testing is an addressable specification), a failed or
 * too slow restore high (the disaster recovery plan, required, would not bring the data back in time).
 */
export function restoreFinding(host: string, latest: RestoreTest | null): FindingParsed | null {
  const verdict = verdictOf(latest);
  const base = {
    source: "internal" as const,
    category: BACKUPS.categories[0]!,
    controls: [...RESTORE_CONTROLS],
    host,
  };
  if (verdict === "not_tested") {
    const checkId = "backups.restore_not_tested";
    return {
      ...base,
      id: findingId(checkId),
      check_id: checkId,
      severity: "medium",
      title: `No restore of ${host}, which holds ePHI, was tested in the last ${RESTORE_TEST_MAX_AGE_MONTHS} months`,
      detail:
        "A backup is only known to work once it has been restored. Without a tested restore there is no evidence that this machine's ePHI could be brought back within the contingency plan's 72 hours.",
      remediation: `Restore this machine's backup to a spare machine or a scratch location, time it, check the data is usable, and record the test (POST /v1/restore-tests, system "${host}"). Repeat at least yearly.`,
      evidence: { looked_for: "restore-test records naming this host, and restores its backup tool recorded" },
    };
  }
  if (verdict === "tested" || !latest) return null;
  if (verdict === "failed") {
    const checkId = "backups.restore_test_failed";
    return {
      ...base,
      id: findingId(checkId),
      check_id: checkId,
      severity: "high",
      title: `The latest restore test of ${host} (${latest.tested_on}) failed`,
      detail: `The data of this machine, which holds ePHI, could not be restored from its backup (${sourceWords(latest)}).`,
      remediation:
        "Find out why the restore failed (missing data, a key or password not at hand, a broken backup chain), fix the backup, and test the restore again.",
      evidence: { tested_on: latest.tested_on, source: latest.source, ref: latest.ref },
    };
  }
  const checkId = "backups.restore_over_72_hours";
  return {
    ...base,
    id: findingId(checkId),
    check_id: checkId,
    severity: "high",
    title: `Restoring ${host} took ${hours(latest.minutes)} hours, over the ${RESTORE_DEADLINE_HOURS}-hour limit`,
    detail: `The latest restore test (${latest.tested_on}, ${sourceWords(latest)}) took longer than the contingency plan allows for bringing ePHI back.`,
    remediation:
      "Shorten the restore: a local copy beside the off-site one, an image-level backup, a standby machine, or a smaller restore order (the EHR database first). Test it again and record the time.",
    evidence: {
      tested_on: latest.tested_on,
      minutes: latest.minutes,
      limit_hours: RESTORE_DEADLINE_HOURS,
      source: latest.source,
      ref: latest.ref,
    },
  };
}

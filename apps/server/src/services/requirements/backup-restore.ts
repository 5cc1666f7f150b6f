import { INTERNAL_RESULT_MAX_AGE_DAYS, RESTORE_DEADLINE_HOURS, RESTORE_TEST_MAX_AGE_MONTHS } from "@hcs/protocol";
import { scannerRestore } from "../../readiness/host-restore.js";
import {
  latestTest,
  RESTORE_CHECKS,
  type RestoreTest,
  type RestoreVerdict,
  systemKey,
  verdictOf,
} from "../../readiness/restore-rules.js";
import {
  bySeverity,
  type EvidenceItem,
  ephiScope,
  type HostAssessment,
  latest,
  type OpenFinding,
  plural,
  refsOf,
  resultOf,
  type State,
} from "./items.js";

/** A restore-test record of the practice, as requirement 6 reads it. */
export interface RestoreTestRecord {
  readonly id: string;
  readonly system: string;
  readonly tested_on: string;
  readonly minutes: number;
  readonly succeeded: boolean;
  readonly recorded_at: string;
}

/** The backups phase's findings that say backups are not recent (the restore findings are the other item's). */
const BACKUP_CHECKS = new Set(["backups.no_backup_agent", "backups.backup_stale", "backups.backup_never_completed"]);
const BACKUP_WORDS: Record<string, string> = {
  "backups.no_backup_agent": "no backup at all",
  "backups.backup_stale": "the last backup is older than 48 hours",
  "backups.backup_never_completed": "the backup tool never completed a backup",
};

/**
 * Requirement 6's first item: backups are recent on the hosts that hold ePHI (every scanned host when none is shown
 * to), each judged by its backups phase at the scan — not met where a host has no backup, a stale one or one that
 * never completed; partial where a host's last backup could not be read; unknown when it could be read nowhere.
 */
export function backupsItem(hosts: readonly HostAssessment[], open: readonly OpenFinding[]): EvidenceItem {
  const { judged, scope } = ephiScope(hosts, "backups");
  const base = { kind: "phase" as const, ref: "backups", sources: refsOf(judged) };
  if (judged.length === 0)
    return {
      ...base,
      state: "unknown",
      detail:
        hosts.length === 0
          ? "no internal scan has been uploaded, so the backups phase never ran"
          : `the backups phase has no result from the last ${INTERNAL_RESULT_MAX_AGE_DAYS} days on any scanner host`,
      findings: [],
      assessed_at: null,
    };
  const per = judged.map((h) => {
    const findings = open.filter((f) => f.subject === h.subject && BACKUP_CHECKS.has(f.check_id)).sort(bySeverity);
    const readiness = resultOf(h, "backups")?.evidence?.readiness;
    const unread = resultOf(h, "backups")?.evidence?.backup_unread;
    let state: State | "not_read";
    let words: string;
    if (findings.length > 0) {
      state = "not_met";
      words = `${findings.map((f) => BACKUP_WORDS[f.check_id] ?? f.check_id).join("; ")} (${findings.map((f) => f.id).join(", ")})`;
    } else if (readiness?.backup.state === "not_established") {
      state = "not_read";
      words = `the last backup could not be read${unread ? `: ${unread.replace(/^could not be read: /, "")}` : ""}`;
    } else if (readiness && readiness.backup.state !== "recent") {
      state = "not_met";
      words = `the last backup was ${readiness.backup.state.replace(/_/g, " ")} at the scan`;
    } else {
      state = "met";
      words = readiness?.backup.at
        ? `backed up by ${readiness.backup.tool} ${readiness.backup.age_hours} hours before the scan`
        : "no finding against its backups";
    }
    return { host: h, state, words, findings };
  });
  const recent = per.filter((p) => p.state === "met").length;
  const states = per.map((p) => p.state);
  const state: State = states.every((s) => s === "not_read")
    ? "unknown"
    : states.includes("not_met")
      ? "not_met"
      : states.includes("not_read")
        ? "partial"
        : "met";
  return {
    ...base,
    state,
    detail: `backups recent on ${recent} of ${plural(judged.length, scope)}: ${per.map((p) => `${p.host.subject}: ${p.words}`).join("; ")}`,
    findings: per.flatMap((p) => p.findings.map((f) => f.id)),
    assessed_at: latest(judged.map((h) => resultOf(h, "backups")?.assessed_at)),
  };
}

const VERDICT_STATE: Record<RestoreVerdict, State> = {
  tested: "met",
  not_tested: "partial",
  failed: "not_met",
  over_72_hours: "not_met",
};

function describeTest(t: RestoreTest | null, verdict: RestoreVerdict): string {
  if (!t) return `no restore tested in the last ${RESTORE_TEST_MAX_AGE_MONTHS} months`;
  const by = t.source === "record" ? `record ${t.ref}` : `${t.ref}'s record`;
  const hours = Math.round((t.minutes / 60) * 10) / 10;
  if (verdict === "failed") return `the restore tested on ${t.tested_on} failed (${by})`;
  if (verdict === "over_72_hours")
    return `the restore tested on ${t.tested_on} took ${hours} hours, over ${RESTORE_DEADLINE_HOURS} (${by})`;
  return `restored on ${t.tested_on} in ${hours} hours (${by})`;
}

/**
 * Requirement 6's second item: a restore of each system that holds ePHI — the scanner hosts shown to hold it, and
 * every system the practice recorded a restore test of — was tested within 12 months and took under 72 hours. The
 * latest test within the window decides for a system: none is partial (testing is addressable), a failed or too slow
 * one not met. Unknown while no system is known to hold ePHI and no restore test is recorded.
 */
export function restoreItem(
  hosts: readonly HostAssessment[],
  records: readonly RestoreTestRecord[],
  open: readonly OpenFinding[],
  today: string,
): EvidenceItem {
  const ephiHosts = hosts.filter((h) => h.holds_ephi && h.phases.length > 0);
  const hostKeys = new Set(ephiHosts.map((h) => systemKey(h.subject)));
  const recordTests = new Map<string, { name: string; tests: RestoreTest[] }>();
  for (const r of records) {
    const key = systemKey(r.system);
    const entry = recordTests.get(key) ?? { name: r.system, tests: [] };
    entry.tests.push({
      source: "record",
      ref: r.id,
      tested_on: r.tested_on,
      minutes: r.minutes,
      succeeded: r.succeeded,
    });
    recordTests.set(key, entry);
  }
  const systems = [
    ...ephiHosts.map((h) => ({
      name: h.subject,
      host: h as HostAssessment | null,
      tests: [
        ...(recordTests.get(systemKey(h.subject))?.tests ?? []),
        ...scannerRestore(resultOf(h, "backups")?.evidence ?? null),
      ],
    })),
    ...[...recordTests]
      .filter(([key]) => !hostKeys.has(key))
      .map(([, e]) => ({ name: e.name, host: null, tests: e.tests })),
  ];
  const base = { kind: "administrative" as const, ref: "restore_tests", sources: refsOf(ephiHosts) };
  if (systems.length === 0)
    return {
      ...base,
      state: "unknown",
      detail:
        "no system is known to hold ePHI (no scanner host showed ePHI software or files) and no restore test is recorded (POST /v1/restore-tests)",
      findings: [],
      assessed_at: null,
    };
  const per = systems.map((s) => {
    const test = latestTest(s.tests, today);
    const verdict = verdictOf(test);
    return { ...s, verdict, words: describeTest(test, verdict) };
  });
  const tested = per.filter((p) => p.verdict === "tested").length;
  const states = per.map((p) => VERDICT_STATE[p.verdict]);
  const state: State = states.includes("not_met") ? "not_met" : states.includes("partial") ? "partial" : "met";
  const subjects = new Set(ephiHosts.map((h) => h.subject));
  const findings = open.filter((f) => subjects.has(f.subject) && RESTORE_CHECKS.has(f.check_id)).sort(bySeverity);
  return {
    ...base,
    state,
    detail: `restore tested within ${RESTORE_TEST_MAX_AGE_MONTHS} months in under ${RESTORE_DEADLINE_HOURS} hours for ${tested} of ${plural(systems.length, "system")} holding ePHI: ${per.map((p) => `${p.name}: ${p.words}`).join("; ")}`,
    findings: findings.map((f) => f.id),
    assessed_at: latest([
      ...records.map((r) => r.recorded_at),
      ...ephiHosts.map((h) => resultOf(h, "backups")?.assessed_at),
    ]),
  };
}

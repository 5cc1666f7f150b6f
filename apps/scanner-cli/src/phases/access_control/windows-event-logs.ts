/**
 * Windows event-log sizes and what happens when a log is full (`wevtutil gl <log>`): a Security log of a few MB that
 * overwrites its oldest events keeps hours of logons on a busy PC, so who did what last week cannot be shown
 * (164.312(b), and the retention of 164.316(b)(2)(i)). Pure. Only wevtutil's English property names are read.
 */
import type { FindingInput, JsonObject } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";

export interface EventLogConfig {
  readonly name: string;
  readonly enabled: boolean;
  /** `retention: true`: when full, keep old events and drop new ones ("Do not overwrite events"). */
  readonly retention: boolean;
  /** `autoBackup: true`: when full, archive the file and start a new one ("Archive the log when full"). */
  readonly autoBackup: boolean;
  readonly maxSizeBytes: number;
}

/** The logs read, and the smallest size in KB each should have: Microsoft's security baseline and CIS 18.10.26. */
export const EVENT_LOG_BASELINE_KB: Readonly<Record<string, number>> = {
  Security: 196_608,
  Application: 32_768,
  System: 32_768,
};

/** One log's configuration; null when the text is not wevtutil's `gl` output with English property names. */
export function parseWevtutilGl(text: string): EventLogConfig | null {
  const value = (key: string) => new RegExp(`^\\s*${key}:[ \\t]*(\\S.*?)\\s*$`, "m").exec(text)?.[1];
  const bool = (key: string) => {
    const v = value(key);
    return v === "true" ? true : v === "false" ? false : null;
  };
  const name = value("name");
  const enabled = bool("enabled");
  const retention = bool("retention");
  const autoBackup = bool("autoBackup");
  const maxSize = value("maxSize");
  if (!name || enabled === null || retention === null || autoBackup === null || !maxSize || !/^\d+$/.test(maxSize))
    return null;
  return { name, enabled, retention, autoBackup, maxSizeBytes: Number(maxSize) };
}

export type WhenFull = "overwrite_oldest" | "stop_recording" | "archive";

export function whenFull(log: EventLogConfig): WhenFull {
  if (log.autoBackup) return "archive";
  return log.retention ? "stop_recording" : "overwrite_oldest";
}

/** What the facts record of a log. */
export function eventLogFacts(log: EventLogConfig): JsonObject {
  return {
    name: log.name,
    enabled: log.enabled,
    max_size_kb: Math.floor(log.maxSizeBytes / 1024),
    when_full: whenFull(log),
  };
}

export interface EventLogShortfall {
  readonly log: string;
  readonly problem: "disabled" | "too_small";
  readonly maxSizeKb: number;
  readonly baselineKb: number;
  readonly whenFull: WhenFull;
}

/**
 * The logs that lose evidence: switched off, or below the baseline while losing events when full (overwriting the
 * oldest, or refusing new ones). A log archived when full loses nothing whatever its size (disk permitting).
 */
export function eventLogShortfalls(logs: readonly EventLogConfig[]): EventLogShortfall[] {
  const out: EventLogShortfall[] = [];
  for (const log of logs) {
    // wevtutil echoes the name as it was asked for (`gl security` prints `name: security`).
    const name = Object.keys(EVENT_LOG_BASELINE_KB).find((n) => n.toLowerCase() === log.name.toLowerCase());
    if (name === undefined) continue;
    const baselineKb = EVENT_LOG_BASELINE_KB[name]!;
    const maxSizeKb = Math.floor(log.maxSizeBytes / 1024);
    const common = { log: name, maxSizeKb, baselineKb, whenFull: whenFull(log) };
    if (!log.enabled) out.push({ ...common, problem: "disabled" });
    else if (!log.autoBackup && maxSizeKb < baselineKb) out.push({ ...common, problem: "too_small" });
  }
  return out;
}

const KB = new Intl.NumberFormat("en-US");
const WHEN_FULL_WORDS: Record<WhenFull, string> = {
  overwrite_oldest: "overwrites its oldest events when full",
  stop_recording: "stops recording when full",
  archive: "is archived when full",
};

/**
 * One finding naming each log: medium when the Security log (logons, account changes) is among them, low when only
 * Application or System are.
 */
export function eventLogFinding(shortfalls: readonly EventLogShortfall[]): FindingInput | null {
  if (shortfalls.length === 0) return null;
  const security = shortfalls.some((s) => s.log === "Security");
  const described = shortfalls.map((s) =>
    s.problem === "disabled"
      ? `${s.log} is disabled`
      : `${s.log} is ${KB.format(s.maxSizeKb)} KB and ${WHEN_FULL_WORDS[s.whenFull]} (baseline ${KB.format(s.baselineKb)} KB)`,
  );
  return phaseFinding("access_control", {
    check: "event_log_too_small",
    severity: security ? "medium" : "low",
    title: security
      ? "The Windows Security log is too small to keep the evidence of who logged on"
      : "Windows event logs are too small to keep a useful history",
    detail: `${described.join("; ")}. A log this size on a PC in daily use holds hours to days of events, so logons and changes older than that cannot be examined.`,
    remediation:
      "Set the maximum log sizes by Group Policy (Administrative Templates → Windows Components → Event Log Service: Security 196,608 KB or more, Application and System 32,768 KB or more) or wevtutil sl Security /ms:201326592, and forward the logs to a collector that keeps them for your retention period.",
    evidence: {
      logs: shortfalls.map((s) => ({
        log: s.log,
        problem: s.problem,
        max_size_kb: s.maxSizeKb,
        baseline_kb: s.baselineKb,
        when_full: s.whenFull,
      })),
    },
    controls: ["164.312(b)", "164.316(b)(2)(i)"],
  });
}

/**
 * Audit controls (164.312(b)) on Linux: are system logs kept, is security auditing running, are clocks right
 * (timestamps are evidence only if they are). Pure: parsers of journald.conf and `timedatectl show`, and the judgement
 * of what the reader saw. Reported by the access_control phase, citing 164.312(b) (docs/scanner.md says why).
 */
import type { FindingInput, JsonObject } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";

const AUDIT_CONTROLS = ["164.312(b)"] as const;

export type JournaldStorage = "persistent" | "volatile" | "auto" | "none";

/**
 * The `Storage=` of journald's configuration: the main file, then drop-ins in the order systemd reads them (the last
 * setting wins). Unset means `auto` (journald's default): persistent only if /var/log/journal exists.
 */
export function journaldStorage(configs: readonly string[]): JournaldStorage {
  let storage: JournaldStorage = "auto";
  for (const text of configs) {
    let inJournal = false;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (line.startsWith("[")) inJournal = line === "[Journal]";
      const m = /^Storage\s*=\s*(persistent|volatile|auto|none)\s*$/i.exec(line);
      if (inJournal && m) storage = m[1]!.toLowerCase() as JournaldStorage;
    }
  }
  return storage;
}

/** `timedatectl show`: whether NTP is switched on and the clock synchronised; null when it is not that output. */
export function parseTimedatectlShow(text: string): { ntp: boolean; synchronised: boolean } | null {
  const value = (key: string) => new RegExp(`^${key}=(yes|no)$`, "m").exec(text)?.[1];
  const synced = value("NTPSynchronized");
  if (synced === undefined) return null;
  return { ntp: value("NTP") === "yes", synchronised: synced === "yes" };
}

/** Daemons by process name (the kernel cuts names at 15 characters: `systemd-timesyn`). */
const SYSLOG_DAEMONS = /^(rsyslogd|syslog-ng|syslogd)$/;
/** systemd-journald as the process list shows it (cut at 15 characters). */
const JOURNALD = /^systemd-journal(d)?$/;
const TIME_DAEMONS = /^(chronyd|ntpd|ntpsec|openntpd|systemd-timesyn(cd)?)$/;

export interface AuditReading {
  readonly journaldStorage: JournaldStorage;
  readonly journalDirectoryExists: boolean;
  /** Running process names; null when the process list could not be read. */
  readonly processes: readonly string[] | null;
  readonly auditdInstalled: boolean;
  /** `timedatectl show`, or why it could not be read. */
  readonly timedatectl: { ntp: boolean; synchronised: boolean } | { unavailable: string };
}

export interface AuditState {
  readonly facts: JsonObject;
  readonly findings: FindingInput[];
}

/**
 * What the reading says about each audit control, and the findings: no logger running at all, or logs that do not
 * survive a restart (medium),
 * auditd not running (low: system logs still record logins and services, auditd adds file and privilege auditing),
 * a clock that is not synchronised (medium). A part that could not be read is named as such in the facts
 * (`audit_<part>_unavailable`) and raises nothing.
 */
export function judgeAudit(r: AuditReading): AuditState {
  const findings: FindingInput[] = [];
  const processes = r.processes && r.processes.length > 0 ? r.processes : null;
  const journalPersistent =
    r.journaldStorage === "persistent" || (r.journaldStorage === "auto" && r.journalDirectoryExists);
  const syslog = processes ? (processes.find((p) => SYSLOG_DAEMONS.test(p)) ?? null) : undefined;
  const journaldRunning = processes ? processes.some((p) => JOURNALD.test(p)) : undefined;
  const auditdRunning = processes ? processes.includes("auditd") : undefined;
  const timeDaemon = processes ? (processes.find((p) => TIME_DAEMONS.test(p)) ?? null) : undefined;

  // Nothing records logins and service events when neither journald nor a syslog daemon runs (a machine or
  // container started without systemd and without rsyslog): where the journal would be kept does not matter then.
  const noLogger = journaldRunning === false && syslog === null;
  if (noLogger) {
    findings.push(
      phaseFinding("access_control", {
        check: "no_log_daemon",
        severity: "medium",
        title: "No system logger is running",
        detail:
          "Neither systemd-journald nor a syslog daemon (rsyslog, syslog-ng) runs, so logins, privilege use and service events are not recorded anywhere.",
        remediation:
          "Run systemd-journald with Storage=persistent, or install and enable rsyslog; keep logs for the retention your policy sets.",
        evidence: { journald_running: false, syslog_daemon: null },
        controls: AUDIT_CONTROLS,
      }),
    );
  }
  // Logs are kept when journald writes to disk or a syslog daemon does (it writes /var/log by default).
  if (!noLogger && !journalPersistent && syslog === null) {
    findings.push(
      phaseFinding("access_control", {
        check: "logs_not_persistent",
        severity: "medium",
        title: "System logs are lost at every restart",
        detail: `journald keeps its journal in memory (Storage=${r.journaldStorage}${r.journaldStorage === "auto" ? ", and /var/log/journal does not exist" : ""}) and no syslog daemon is running, so logins and service events cannot be examined after a reboot.`,
        remediation:
          "Set Storage=persistent in /etc/systemd/journald.conf (or create /var/log/journal) and restart systemd-journald, or run rsyslog; keep logs for the retention your policy sets.",
        evidence: {
          journald_storage: r.journaldStorage,
          journal_directory: r.journalDirectoryExists,
          syslog_daemon: null,
        },
        controls: AUDIT_CONTROLS,
      }),
    );
  }
  if (auditdRunning === false) {
    findings.push(
      phaseFinding("access_control", {
        check: "auditd_not_running",
        severity: "low",
        title: r.auditdInstalled
          ? "The Linux audit daemon (auditd) is installed but not running"
          : "The Linux audit daemon (auditd) is not installed",
        detail:
          "Without auditd, access to ePHI files, use of administrator rights and changes to accounts leave no audit record.",
        remediation:
          "Install and enable auditd (apt install auditd / dnf install audit; systemctl enable --now auditd) with rules for ePHI paths, sudo and account files.",
        evidence: { auditd_installed: r.auditdInstalled, auditd_running: false },
        controls: AUDIT_CONTROLS,
      }),
    );
  }
  const td = r.timedatectl;
  const clockUnsynced = "synchronised" in td ? !td.synchronised : timeDaemon === null;
  if (clockUnsynced)
    findings.push(
      clockNotSynchronisedFinding(
        "synchronised" in td
          ? { source: "timedatectl", ntp: td.ntp, synchronised: td.synchronised }
          : { source: "process list", time_daemon: null },
        "Enable time synchronisation (timedatectl set-ntp true, or chrony) against the practice's or a public NTP server.",
      ),
    );

  const unavailable: Record<string, string> = {};
  if (!processes)
    unavailable.audit_processes_unavailable =
      "the process list could not be read (syslog, auditd and time daemons not assessed)";
  if (!("synchronised" in td) && timeDaemon === undefined) unavailable.audit_time_sync_unavailable = td.unavailable;
  return {
    facts: {
      audit: {
        journald_storage: r.journaldStorage,
        journal_persistent: journalPersistent,
        journald_running: journaldRunning ?? null,
        syslog_daemon: syslog ?? null,
        auditd: { installed: r.auditdInstalled, running: auditdRunning ?? null },
        time_sync:
          "synchronised" in td
            ? { source: "timedatectl", ntp: td.ntp, synchronised: td.synchronised }
            : { source: "process list", daemon: timeDaemon ?? null, timedatectl_unavailable: td.unavailable },
      },
      ...unavailable,
    },
    findings,
  };
}

/** The clock is not kept right by a time server (any OS); `evidence` says what showed it. */
export function clockNotSynchronisedFinding(evidence: JsonObject, remediation: string): FindingInput {
  return phaseFinding("access_control", {
    check: "clock_not_synchronised",
    severity: "medium",
    title: "The system clock is not synchronised with a time server",
    detail:
      "Log timestamps are evidence only if clocks are right; an unsynchronised clock makes events impossible to order across machines.",
    remediation,
    evidence,
    controls: AUDIT_CONTROLS,
  });
}

/**
 * `w32tm /query /status` (Windows Time): synchronised unless the leap indicator is 3 (not synchronised) or the source
 * is the machine's own clock; a stopped service is not synchronised. Labels are translated, so only English output is
 * read; null otherwise.
 */
export function parseW32tmStatus(text: string): { synchronised: boolean; source: string | null } | null {
  if (/The service has not been started/.test(text)) return { synchronised: false, source: null };
  const leap = /^Leap Indicator:\s*(\d)/m.exec(text)?.[1];
  if (leap === undefined) return null;
  const source = /^Source:\s*(.+?)\s*$/m.exec(text)?.[1] ?? null;
  const localClock = source !== null && /^(Local CMOS Clock|Free-running System Clock)$/i.test(source);
  return { synchronised: leap !== "3" && !localClock, source };
}

/**
 * `systemsetup -getusingnetworktime` (macOS): whether the clock is set from a time server ("Set time and date
 * automatically"); on is the setting, not proof the last synchronisation worked. Without administrator rights it
 * prints a refusal and still exits 0, so only the two answers count; null otherwise.
 */
export function parseSystemsetupNetworkTime(text: string): { networkTime: boolean } | null {
  const m = /^Network Time:\s*(On|Off)\s*$/im.exec(text);
  return m ? { networkTime: m[1]!.toLowerCase() === "on" } : null;
}

/** systemsetup's refusal without administrator rights (it exits 0 all the same). */
export const SYSTEMSETUP_NEEDS_ADMIN = /You need administrator access/i;

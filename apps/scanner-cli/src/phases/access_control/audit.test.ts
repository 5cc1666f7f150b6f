import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type AuditReading, journaldStorage, judgeAudit, parseTimedatectlShow, parseW32tmStatus } from "./audit.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

const base: AuditReading = {
  journaldStorage: "persistent",
  journalDirectoryExists: true,
  processes: ["systemd-journald", "rsyslogd", "auditd", "chronyd"],
  auditdInstalled: true,
  timedatectl: { ntp: true, synchronised: true },
};

describe("audit control parsers", () => {
  it("reads Debian 12's stock journald.conf as Storage=auto (every setting commented out)", () => {
    expect(journaldStorage([fixture("linux-journald.conf")])).toBe("auto");
    // A drop-in read after the main file wins.
    expect(journaldStorage([fixture("linux-journald.conf"), "[Journal]\nStorage=volatile\n"])).toBe("volatile");
    // A Storage= outside [Journal] is not journald's.
    expect(journaldStorage(["[Other]\nStorage=none\n"])).toBe("auto");
  });

  it("reads timedatectl show as printed on a chrony-synchronised host", () => {
    expect(parseTimedatectlShow(fixture("linux-timedatectl-show.txt"))).toEqual({ ntp: true, synchronised: true });
    const unsynced = fixture("linux-timedatectl-show.txt").replace("NTPSynchronized=yes", "NTPSynchronized=no");
    expect(parseTimedatectlShow(unsynced)).toEqual({ ntp: true, synchronised: false });
    expect(
      parseTimedatectlShow("System has not been booted with systemd as init system (PID 1). Can't operate."),
    ).toBeNull();
  });
});

describe("Windows Time (w32tm /query /status)", () => {
  it("reads the leap indicator and source: the local CMOS clock is not synchronised, an NTP peer is", () => {
    expect(parseW32tmStatus(fixture("win32-w32tm-query-status-unsynced.txt"))).toEqual({
      synchronised: false,
      source: "Local CMOS Clock",
    });
    expect(parseW32tmStatus(fixture("win32-w32tm-query-status-synced.txt"))).toEqual({
      synchronised: true,
      source: "pool.ntp.org",
    });
    // The Windows Time service stopped: nothing keeps the clock right.
    expect(parseW32tmStatus(fixture("win32-w32tm-query-status-stopped.txt"))).toEqual({
      synchronised: false,
      source: null,
    });
    expect(parseW32tmStatus("Indicateur de saut : 0(aucun avertissement)")).toBeNull();
  });
});

describe("audit controls judged", () => {
  it("persistent logs, auditd running and a synchronised clock: nothing to report", () => {
    const s = judgeAudit(base);
    expect(s.findings).toEqual([]);
    expect(s.facts.audit).toEqual({
      journald_storage: "persistent",
      journal_persistent: true,
      journald_running: true,
      syslog_daemon: "rsyslogd",
      auditd: { installed: true, running: true },
      time_sync: { source: "timedatectl", ntp: true, synchronised: true },
    });
  });

  it("volatile journal without syslog, no auditd, unsynchronised clock: three findings citing 164.312(b)", () => {
    const s = judgeAudit({
      ...base,
      journaldStorage: "auto",
      journalDirectoryExists: false,
      processes: ["systemd-journald", "sshd"],
      auditdInstalled: false,
      timedatectl: { ntp: false, synchronised: false },
    });
    expect(s.findings.map((f) => [f.id, f.severity, f.category, f.controls])).toEqual([
      ["access_control.logs_not_persistent", "medium", "access_control", ["164.312(b)"]],
      ["access_control.auditd_not_running", "low", "access_control", ["164.312(b)"]],
      ["access_control.clock_not_synchronised", "medium", "access_control", ["164.312(b)"]],
    ]);
    expect(s.findings[1]?.title).toBe("The Linux audit daemon (auditd) is not installed");
  });

  it("neither journald nor a syslog daemon running (a container without systemd): no logger, not a volatile journal", () => {
    // The process names of this CI machine, where /var/log/journal exists but nothing writes to it.
    const s = judgeAudit({
      ...base,
      journaldStorage: "auto",
      journalDirectoryExists: true,
      processes: ["postgres", "redis-server", "mariadbd", "node", "auditd", "chronyd"],
    });
    expect(s.findings.map((f) => [f.id, f.severity, f.controls])).toEqual([
      ["access_control.no_log_daemon", "medium", ["164.312(b)"]],
    ]);
    expect(s.facts.audit).toMatchObject({ journald_running: false, syslog_daemon: null });
    // journald cut at 15 characters by the kernel is still journald.
    expect(judgeAudit({ ...base, processes: ["systemd-journal", "auditd", "chronyd"] }).findings).toEqual([]);
  });

  it("a syslog daemon keeps logs when the journal is volatile; a time daemon counts where timedatectl cannot answer", () => {
    const s = judgeAudit({
      ...base,
      journaldStorage: "volatile",
      processes: ["syslog-ng", "auditd", "systemd-timesyn"],
      timedatectl: { unavailable: "timedatectl is not available on this machine" },
    });
    expect(s.findings).toEqual([]);
    expect(s.facts.audit).toMatchObject({ syslog_daemon: "syslog-ng", time_sync: { daemon: "systemd-timesyn" } });
  });

  it("what could not be read is named, never passed and never a finding", () => {
    const s = judgeAudit({
      ...base,
      journaldStorage: "volatile",
      processes: null,
      timedatectl: { unavailable: "timedatectl is not available on this machine" },
    });
    expect(s.findings).toEqual([]);
    expect(s.facts).toMatchObject({
      audit_processes_unavailable: expect.stringMatching(/^the process list could not be read/),
      audit_time_sync_unavailable: "timedatectl is not available on this machine",
      audit: { auditd: { running: null }, syslog_daemon: null },
    });
  });
});

import type { BackupReadiness } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import type { EvidenceCoverage } from "../../audit/evidence-coverage.js";
import { auditControlsItem, auditLogItem, auditTrailState } from "./audit-trail.js";
import { backupsItem, restoreItem } from "./backup-restore.js";
import type { HostAssessment, OpenFinding } from "./items.js";

const AT = "2026-01-15T12:00:00.000Z";
const readiness = (state: BackupReadiness["backup"]["state"], ephi = true): BackupReadiness => ({
  ephi_bearing: ephi,
  backup: {
    state,
    tool: state === "recent" ? "restic" : null,
    at: state === "recent" ? AT : null,
    age_hours: state === "recent" ? 5 : null,
  },
  restore: null,
  restore_records_kept_by: [],
});
const host = (subject: string, ephi: boolean, phases: HostAssessment["phases"]): HostAssessment => ({
  reference: `scan:${subject}`,
  subject,
  holds_ephi: ephi,
  phases,
});
const finding = (subject: string, check_id: string, severity: OpenFinding["severity"] = "high"): OpenFinding => ({
  id: check_id,
  source: "internal",
  subject,
  check_id,
  severity,
});

describe("requirement 6: backups recent on the hosts that hold ePHI", () => {
  it("judges the ePHI hosts only when there are some, every scanned host otherwise", () => {
    const server = host("ehr-server", true, [
      { id: "backups", assessed_at: AT, evidence: { readiness: readiness("recent") } },
    ]);
    const laptop = host("laptop-2", false, [
      { id: "backups", assessed_at: AT, evidence: { readiness: readiness("none", false) } },
    ]);
    const open = [finding("laptop-2", "backups.no_backup_agent")];
    expect(backupsItem([server, laptop], open)).toMatchObject({
      state: "met",
      findings: [],
      sources: ["scan:ehr-server"],
    });
    expect(backupsItem([laptop], open)).toMatchObject({ state: "not_met", findings: ["backups.no_backup_agent"] });
  });

  it("partial when a host's last backup could not be read; unknown when none could", () => {
    const read = host("a", true, [{ id: "backups", assessed_at: AT, evidence: { readiness: readiness("recent") } }]);
    const unread = host("b", true, [
      {
        id: "backups",
        assessed_at: AT,
        evidence: { readiness: readiness("not_established"), backup_unread: "restic has no repository" },
      },
    ]);
    expect(backupsItem([read, unread], []).state).toBe("partial");
    expect(backupsItem([read, unread], []).detail).toMatch(
      /b: the last backup could not be read: restic has no repository/,
    );
    expect(backupsItem([unread], []).state).toBe("unknown");
    expect(backupsItem([], []).state).toBe("unknown");
  });

  it("restore: every ePHI host and every recorded system must have a test within 12 months under 72 hours", () => {
    const server = host("ehr-server", true, [
      { id: "backups", assessed_at: AT, evidence: { readiness: readiness("recent") } },
    ]);
    const record = (system: string, minutes: number, succeeded = true) => ({
      id: `rst_${system}`,
      system,
      tested_on: "2025-12-01",
      minutes,
      succeeded,
      recorded_at: AT,
    });
    expect(restoreItem([server], [], [], "2026-01-15").state).toBe("partial");
    expect(restoreItem([server], [record("EHR-Server", 200)], [], "2026-01-15").state).toBe("met");
    const cloud = restoreItem([server], [record("ehr-server", 200), record("hosted-ehr", 5000)], [], "2026-01-15");
    expect(cloud.state).toBe("not_met");
    expect(cloud.detail).toMatch(
      /for 1 of 2 systems holding ePHI: .*hosted-ehr: the restore tested on 2025-12-01 took 83.3 hours/,
    );
    expect(restoreItem([], [], [], "2026-01-15").state).toBe("unknown");
  });
});

describe("requirement 13: audit controls and the audit log", () => {
  const coverage = (states: EvidenceCoverage["records"][number]["state"][], anchoring = false): EvidenceCoverage => ({
    records: states.map((state, i) => ({ ref: `scan:${i}`, state })),
    checkpoint: { size: 10, created_at: AT },
    anchoring,
    anchored: null,
  });

  it("no log past a restart is not met, a weak control partial, an unread one partial, none read unknown", () => {
    const h = (subject: string, read: string[] = ["audit"]) =>
      host(subject, true, [{ id: "access_control", assessed_at: AT, evidence: { audit: { read, not_read: {} } } }]);
    expect(auditControlsItem([h("a")], [finding("a", "access_control.logs_not_persistent", "medium")]).state).toBe(
      "not_met",
    );
    expect(auditControlsItem([h("a")], [finding("a", "access_control.auditd_not_running", "low")]).state).toBe(
      "partial",
    );
    // Not an audit control: requirement 2's.
    expect(auditControlsItem([h("a")], [finding("a", "access_control.weak_password_policy", "medium")]).state).toBe(
      "met",
    );
    expect(auditControlsItem([h("a", [])], []).state).toBe("unknown");
    expect(auditControlsItem([h("a"), h("b", [])], []).state).toBe("partial");
  });

  it("the log: met when every record is proved, partial while some wait, not met when none is logged", () => {
    const refs = ["scan:0", "scan:1"];
    expect(auditLogItem(refs, coverage(["proved", "proved"])).state).toBe("met");
    expect(auditLogItem(refs, coverage(["proved", "pending"])).state).toBe("partial");
    expect(auditLogItem(refs, coverage(["proved", "awaiting_anchor"], true)).state).toBe("partial");
    expect(auditLogItem(refs, coverage(["proved", "not_logged"])).state).toBe("partial");
    expect(auditLogItem(refs, coverage(["not_logged", "not_logged"])).state).toBe("not_met");
    expect(auditLogItem([], undefined).state).toBe("unknown");
  });

  it("stays unknown while no host's audit controls were read, whatever the log says", () => {
    const met = auditLogItem(["scan:0"], coverage(["proved"]));
    const unknown = auditControlsItem([], []);
    expect(auditTrailState(unknown, met)).toBe("unknown");
    const partial = { ...met, state: "partial" as const };
    expect(auditTrailState({ ...unknown, state: "met" }, partial)).toBe("partial");
  });
});

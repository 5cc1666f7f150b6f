import { INTERNAL_RESULT_MAX_AGE_DAYS } from "@hcs/protocol";
import type { EvidenceCoverage } from "../../audit/evidence-coverage.js";
import {
  bySeverity,
  combine,
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

/**
 * The scanner's audit-control checks (164.312(b), docs/scanner.md "Audit controls"), all raised by the access_control
 * phase. Requirement 13 judges them; requirement 2 (MFA), which reads the same phase, leaves them to it.
 */
export const AUDIT_CONTROL_CHECKS: ReadonlySet<string> = new Set([
  "access_control.no_log_daemon",
  "access_control.logs_not_persistent",
  "access_control.auditd_not_running",
  "access_control.clock_not_synchronised",
  "access_control.audit_policy_gaps",
  "access_control.event_log_too_small",
  "access_control.openbsm_not_configured",
  "access_control.audit_retention_short",
]);

/** No log that outlives a restart: the machine keeps no audit trail at all. */
const NO_TRAIL = new Set(["access_control.no_log_daemon", "access_control.logs_not_persistent"]);

const WORDS: Record<string, string> = {
  "access_control.no_log_daemon": "no log daemon runs",
  "access_control.logs_not_persistent": "system logs are kept in memory only",
  "access_control.auditd_not_running": "auditd is not running",
  "access_control.clock_not_synchronised": "the clock is not synchronised",
  "access_control.audit_policy_gaps": "the audit policy misses logons or account changes",
  "access_control.event_log_too_small": "event logs are too small to keep their events",
  "access_control.openbsm_not_configured": "OpenBSM auditing is off",
  "access_control.audit_retention_short": "audit trail files are removed early",
};

/**
 * Requirement 13's first item: the audit controls of the hosts that hold ePHI (every scanned host when none is
 * shown to), from the access_control phase — not met where a host keeps no log past a restart, partial where an
 * audit control is weak or could not be read, unknown when the audit controls could be read nowhere.
 */
export function auditControlsItem(hosts: readonly HostAssessment[], open: readonly OpenFinding[]): EvidenceItem {
  const { judged, scope } = ephiScope(hosts, "access_control");
  const base = { kind: "phase" as const, ref: "access_control", sources: refsOf(judged) };
  if (judged.length === 0)
    return {
      ...base,
      state: "unknown",
      detail:
        hosts.length === 0
          ? "no internal scan has been uploaded, so no host's audit controls were read"
          : `the access_control phase has no result from the last ${INTERNAL_RESULT_MAX_AGE_DAYS} days on any scanner host, so no host's audit controls were read`,
      findings: [],
      assessed_at: null,
    };
  const per = judged.map((h) => {
    const findings = open
      .filter((f) => f.subject === h.subject && AUDIT_CONTROL_CHECKS.has(f.check_id))
      .sort(bySeverity);
    const audit = resultOf(h, "access_control")?.evidence?.audit;
    const notRead = audit ? Object.entries(audit.not_read) : [];
    const named = findings.map((f) => `${WORDS[f.check_id] ?? f.check_id} (${f.id})`);
    let state: State | "not_read";
    if (findings.some((f) => NO_TRAIL.has(f.check_id))) state = "not_met";
    else if (audit && audit.read.length === 0) state = "not_read";
    else if (findings.length > 0 || notRead.length > 0) state = "partial";
    else state = "met";
    const words =
      state === "not_read"
        ? "its audit controls could not be read"
        : [...named, ...notRead.map(([part, why]) => `${part.replace(/_/g, " ")} not read: ${why}`)].join("; ") ||
          "logs kept, audit controls in place";
    return { host: h, state, words, findings };
  });
  const states = per.map((p) => p.state);
  const state: State = states.every((s) => s === "not_read")
    ? "unknown"
    : states.includes("not_met")
      ? "not_met"
      : states.includes("partial") || states.includes("not_read")
        ? "partial"
        : "met";
  const inPlace = per.filter((p) => p.state === "met").length;
  return {
    ...base,
    state,
    detail: `audit controls in place on ${inPlace} of ${plural(judged.length, scope)}: ${per.map((p) => `${p.host.subject}: ${p.words}`).join("; ")}`,
    findings: per.flatMap((p) => p.findings.map((f) => f.id)),
    assessed_at: latest(judged.map((h) => resultOf(h, "access_control")?.assessed_at)),
  };
}

/**
 * Requirement 13's second item: the practice's evidence — every record the requirements read, scanner uploads and
 * external scans — is in HCS's hashed log (SHA-256, RFC 9162) and covered by a signed checkpoint, and by a finalized
 * anchor when anchoring is in use (docs/audit.md). Met when every record is; partial while some await a checkpoint or
 * an anchor, or some were never logged; not met when none is logged; unknown with no record at all.
 */
export function auditLogItem(refs: readonly string[], coverage: EvidenceCoverage | undefined): EvidenceItem {
  const base = {
    kind: "audit_log" as const,
    ref: "evidence_records",
    sources: [...new Set(refs)].sort(),
    findings: [],
  };
  if (refs.length === 0)
    return {
      ...base,
      state: "unknown",
      detail: "the practice has no scan on record yet, so there is no evidence for the audit log to hold",
      assessed_at: null,
    };
  if (!coverage)
    return { ...base, state: "unknown", detail: "the audit log was not read for this evaluation", assessed_at: null };
  const count = (s: string) => coverage.records.filter((r) => r.state === s).length;
  const total = coverage.records.length;
  const proved = count("proved");
  const parts: string[] = [];
  const where = coverage.checkpoint
    ? `signed checkpoint ${coverage.checkpoint.size} (${coverage.checkpoint.created_at})`
    : "no signed checkpoint yet";
  parts.push(
    `${proved} of ${plural(total, "evidence record")} in the hashed log and covered by a signed checkpoint${coverage.anchoring ? " with a final anchor" : ""} (latest: ${where}${coverage.anchored ? `; anchored up to ${coverage.anchored.size} on chain ${coverage.anchored.chain_id}` : coverage.anchoring ? "; no anchor final yet" : "; anchoring not in use"})`,
  );
  if (count("pending") > 0)
    parts.push(
      `${count("pending")} await the next signed checkpoint (HCS_CHECKPOINT_INTERVAL_S): ${coverage.records
        .filter((r) => r.state === "pending")
        .map((r) => r.ref)
        .join(", ")}`,
    );
  if (count("awaiting_anchor") > 0) parts.push(`${count("awaiting_anchor")} await a final anchor on chain`);
  if (count("not_logged") > 0)
    parts.push(
      `${count("not_logged")} never logged (scans completed before completion events were logged): ${coverage.records
        .filter((r) => r.state === "not_logged")
        .map((r) => r.ref)
        .join(", ")}`,
    );
  const state: State = count("not_logged") === total ? "not_met" : proved === total ? "met" : "partial";
  return { ...base, state, detail: parts.join("; "), assessed_at: coverage.checkpoint?.created_at ?? null };
}

/**
 * Requirement 13's state: unknown while no host's audit controls could be read (the service's log of the evidence
 * does not make the practice's audit trail); otherwise the worst of the two items.
 */
export function auditTrailState(controls: EvidenceItem, log: EvidenceItem): State {
  return controls.state === "unknown" ? "unknown" : combine([controls.state, log.state]);
}

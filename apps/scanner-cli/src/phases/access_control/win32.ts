import type { FindingInput } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { commandUnavailable, unusableOutput } from "../shared/command.js";
import type { Reading } from "../shared/unavailable.js";
import { clockNotSynchronisedFinding, parseW32tmStatus } from "./audit.js";
import { type AccessControlState, manyAdminsFinding, noLockoutFinding, weakPasswordLengthFinding } from "./findings.js";
import { parseNetAccounts, parseNetLocalgroup } from "./parse.js";
import { auditPolicyFinding, auditPolicyGaps, parseAuditpol } from "./windows-audit-policy.js";
import {
  EVENT_LOG_BASELINE_KB,
  type EventLogConfig,
  eventLogFacts,
  eventLogFinding,
  eventLogShortfalls,
  parseWevtutilGl,
} from "./windows-event-logs.js";

const GPO_HINT = "by Group Policy or Intune (Account Policies)";

/** Members of the local Administrators group and the local password policy (net.exe needs no elevation). */
export async function windowsAccessControl(host: Host, signal: AbortSignal): Promise<Reading<AccessControlState>> {
  const group = await host.exec("net", ["localgroup", "Administrators"], { signal });
  const problem = commandUnavailable(group);
  if (problem) return problem;
  const admins = parseNetLocalgroup(group.stdout);
  const accounts = await host.exec("net", ["accounts"], { signal });
  const policy = unusableOutput(accounts) ? null : parseNetAccounts(accounts.stdout);
  const findings: FindingInput[] = [];
  const many = manyAdminsFinding(
    admins,
    "Remove local administrator rights that are not needed; use LAPS for the built-in account.",
  );
  if (many) findings.push(many);
  if (policy) {
    const weak = weakPasswordLengthFinding(
      policy.minPasswordLength,
      `Set "Minimum password length" to 12 or more ${GPO_HINT}.`,
    );
    if (weak) findings.push(weak);
    if (policy.lockoutThreshold === null)
      findings.push(noLockoutFinding(`Set "Account lockout threshold" (for example 10 attempts) ${GPO_HINT}.`));
  }
  // Audit controls (164.312(b)): what the Security log records (auditpol needs an elevated shell).
  const auditpol = await host.exec("auditpol", ["/get", "/category:*"], { signal });
  const policyRead = unusableOutput(auditpol) ? null : parseAuditpol(auditpol.stdout);
  const gaps = policyRead ? auditPolicyGaps(policyRead) : null;
  const gapFinding = gaps ? auditPolicyFinding(gaps) : null;
  if (gapFinding) findings.push(gapFinding);
  // How much of that the Security, Application and System logs keep; a log wevtutil will not show is named, not judged.
  const eventLogs = await readEventLogs(host, signal);
  const logFinding = eventLogFinding(eventLogShortfalls(eventLogs.read));
  if (logFinding) findings.push(logFinding);
  // The clock that timestamps every log entry.
  const w32tm = await host.exec("w32tm", ["/query", "/status"], { signal });
  const time = unusableOutput(w32tm) ? null : parseW32tmStatus(`${w32tm.stdout}\n${w32tm.stderr}`);
  if (time && !time.synchronised)
    findings.push(
      clockNotSynchronisedFinding(
        { source: "w32tm", time_source: time.source, synchronised: false },
        "Start the Windows Time service and synchronise it with the domain or a public NTP server (w32tm /config /syncfromflags:domhier /update, or /manualpeerlist:pool.ntp.org; w32tm /resync).",
      ),
    );
  return {
    facts: {
      admins,
      ...(gaps
        ? { audit_policy_not_recorded: gaps }
        : {
            audit_policy_unavailable:
              unusableOutput(auditpol) ?? "auditpol printed no audit policy (non-English output is not read)",
          }),
      event_logs: eventLogs.read.length > 0 ? eventLogs.read.map(eventLogFacts) : null,
      ...(eventLogs.unread.length > 0 ? { event_logs_unavailable: eventLogs.unread.join("; ") } : {}),
      ...(time
        ? { time_sync: { source: "w32tm", time_source: time.source, synchronised: time.synchronised } }
        : {
            audit_time_sync_unavailable:
              unusableOutput(w32tm) ?? "w32tm printed no status (non-English output is not read)",
          }),
      password_min_length: policy?.minPasswordLength ?? null,
      lockout_threshold: policy?.lockoutThreshold ?? null,
      max_password_age_days: policy?.maxPasswordAgeDays ?? null,
      ...(policy
        ? {}
        : {
            password_policy_unavailable:
              unusableOutput(accounts) ?? "net accounts printed no policy (non-English output is not read)",
          }),
    },
    findings,
  };
}

/** Each baseline log's configuration, and why the ones that could not be read were not. */
async function readEventLogs(host: Host, signal: AbortSignal): Promise<{ read: EventLogConfig[]; unread: string[] }> {
  const names = Object.keys(EVENT_LOG_BASELINE_KB);
  const results = await Promise.all(names.map((name) => host.exec("wevtutil", ["gl", name], { signal })));
  const read: EventLogConfig[] = [];
  const unread: string[] = [];
  results.forEach((r, i) => {
    const problem = unusableOutput(r, "wevtutil");
    const log = problem || !r.ok ? null : parseWevtutilGl(r.stdout);
    if (log) read.push(log);
    else
      unread.push(
        `${names[i]}: ${problem ?? `wevtutil printed no log configuration (exit code ${r.exitCode ?? "none"}; non-English output is not read)`}`,
      );
  });
  return { read, unread };
}

import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { clockNotSynchronisedFinding, parseSystemsetupNetworkTime, SYSTEMSETUP_NEEDS_ADMIN } from "./audit.js";
import { judgeOpenbsm, parseAuditControl } from "./openbsm.js";

const AUDIT_CONTROL = "/etc/security/audit_control";

/**
 * The unified log is always on and cannot be switched off; how long it keeps events depends on its store's size
 * limits and the volume of logging, which no stable command reports, so it is stated, not read.
 */
const UNIFIED_LOGGING = "on by design; keeps days to weeks of events, bounded by size (not read)";

/**
 * The audit controls of a Mac: OpenBSM's audit_control (whether auditd is enabled needs root to ask launchd, so it
 * is named as not read), and whether the clock is set from a time server (systemsetup, which needs admin).
 */
export async function darwinAudit(
  host: Host,
  signal: AbortSignal,
): Promise<{ facts: JsonObject; findings: FindingInput[] }> {
  const [exists, text, systemsetup] = await Promise.all([
    host.fs.exists(AUDIT_CONTROL),
    host.fs.readFile(AUDIT_CONTROL),
    host.exec("systemsetup", ["-getusingnetworktime"], { signal }),
  ]);
  const findings: FindingInput[] = [];
  const unavailable: Record<string, string> = {};
  const facts: Record<string, JsonObject | string | null> = { unified_logging: UNIFIED_LOGGING };

  const control = text === null ? null : parseAuditControl(text);
  if (!exists) {
    const judged = judgeOpenbsm("absent");
    facts.openbsm = judged.facts;
    findings.push(...judged.findings);
  } else if (control) {
    const judged = judgeOpenbsm(control);
    facts.openbsm = judged.facts;
    findings.push(...judged.findings);
    unavailable.audit_daemon_unavailable =
      "whether auditd is enabled is not read (launchctl print system and audit -c need root); audit_control was judged as written";
  } else {
    facts.openbsm = null;
    unavailable.audit_openbsm_unavailable =
      text === null
        ? `${AUDIT_CONTROL} exists but could not be read (it is root's; run the scanner as root)`
        : `${AUDIT_CONTROL} has no dir: or flags: line`;
  }

  const output = `${systemsetup.stdout}\n${systemsetup.stderr}`;
  const time = unusableOutput(systemsetup) ? null : parseSystemsetupNetworkTime(output);
  if (time) {
    facts.time_sync = { source: "systemsetup", network_time: time.networkTime };
    if (!time.networkTime)
      findings.push(
        clockNotSynchronisedFinding(
          { source: "systemsetup", network_time: false },
          'Turn on "Set time and date automatically" (System Settings → General → Date & Time), or systemsetup -setusingnetworktime on, or enforce it with a configuration profile from your MDM.',
        ),
      );
  } else {
    facts.time_sync = null;
    unavailable.audit_time_sync_unavailable =
      unusableOutput(systemsetup) ??
      (SYSTEMSETUP_NEEDS_ADMIN.test(output)
        ? "systemsetup needs administrator privileges (it refused to report network time)"
        : "systemsetup printed no network time setting");
  }
  return { facts: { audit: facts, ...unavailable }, findings };
}

import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { phaseFinding } from "../shared/finding.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { parseSoftwareUpdatePrefs } from "./softwareupdate.js";

const DAY_MS = 86_400_000;
/** Software Update checks daily on its own; two weeks without a completed check means it is not running. */
const STALE_CHECK_DAYS = 14;

/**
 * Pending updates and automatic-update settings as Software Update recorded them at its last check. The scanner
 * reads the record instead of running `softwareupdate -l`, which would contact Apple's servers from the scan.
 */
export async function darwinPatchState(
  host: Host,
  signal: AbortSignal,
): Promise<Reading<{ facts: JsonObject; findings: FindingInput[] }>> {
  const r = await host.exec("defaults", ["read", "/Library/Preferences/com.apple.SoftwareUpdate"], { signal });
  const problem = commandUnavailable(r);
  if (problem) return problem;
  const state = parseSoftwareUpdatePrefs(r.stdout);
  if (!state) return unparsed("Software Update has no readable record on this Mac (defaults printed no preferences)");
  const checkAgeDays = state.lastFullCheck
    ? Math.max(0, Math.floor((host.now().getTime() - state.lastFullCheck.getTime()) / DAY_MS))
    : null;
  const security = state.recommended.filter((u) => u.security);
  const findings: FindingInput[] = [];
  if (security.length > 0) {
    findings.push(
      phaseFinding("patches", {
        check: "pending_security_updates",
        severity: "high",
        title: `${security.length} security updates are waiting to be installed`,
        detail: `Software Update recommended ${state.recommendedCount} updates at its last check, ${security.length} of them security or macOS updates.`,
        remediation: "Install them now (System Settings → General → Software Update) and restart.",
        evidence: { pending: state.recommendedCount, security: security.length, updates: security.map((u) => u.name) },
      }),
    );
  } else if (state.recommendedCount > 0) {
    findings.push(
      phaseFinding("patches", {
        check: "pending_updates",
        severity: "low",
        title: `${state.recommendedCount} updates are waiting to be installed`,
        detail: "None of them is a security or macOS update.",
        remediation: "Install the pending updates in the next maintenance window.",
        evidence: { pending: state.recommendedCount },
      }),
    );
  }
  const settingsOff = [
    ...(state.automaticCheck === false ? ["AutomaticCheckEnabled"] : []),
    ...(state.criticalUpdateInstall === false ? ["CriticalUpdateInstall"] : []),
  ];
  if (settingsOff.length > 0) {
    findings.push(
      phaseFinding("patches", {
        check: "automatic_updates_off",
        severity: "medium",
        title: "Security fixes are not installed automatically on this Mac",
        detail:
          "Automatic checking or the automatic installation of Security Responses and system files is switched off, so fixes wait for someone to remember them.",
        remediation:
          'Turn on "Check for updates" and "Install Security Responses and system files" (System Settings → General → Software Update → Automatic updates), or enforce them by configuration profile.',
        evidence: { settings_off: settingsOff },
      }),
    );
  }
  if (checkAgeDays !== null && checkAgeDays > STALE_CHECK_DAYS) {
    findings.push(
      phaseFinding("patches", {
        check: "stale_update_check",
        severity: "medium",
        title: `Software Update last completed a check ${checkAgeDays} days ago`,
        detail: "Updates published since then are unknown to this Mac, and the pending list above is just as old.",
        remediation:
          "Make sure the Mac can reach Apple's update servers (or the caching server) and that automatic checking is on.",
        evidence: { last_check_age_days: checkAgeDays },
      }),
    );
  }
  return {
    facts: {
      manager: "softwareupdate",
      pending: state.recommendedCount,
      security: security.length,
      pending_updates: state.recommended.slice(0, 20).map((u) => ({ name: u.name, version: u.version })),
      last_check_at: state.lastFullCheck?.toISOString() ?? null,
      last_check_age_days: checkAgeDays,
      automatic_updates: {
        check: state.automaticCheck ?? null,
        download: state.automaticDownload ?? null,
        security_responses: state.criticalUpdateInstall ?? null,
        macos_updates: state.automaticMacOSUpdates ?? null,
      },
    },
    findings,
  };
}

import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { phaseFinding } from "../shared/finding.js";
import { parseRegQuery } from "../shared/reg-query.js";
import { bothUnavailable, type Reading } from "../shared/unavailable.js";
import { type Hotfix, parseWindowsUpdatePolicy, parseWmicQfe, type WindowsUpdatePolicy } from "./windows-update.js";

const DAY_MS = 86_400_000;
/** Microsoft ships security fixes every month; 45 days without one means at least one Patch Tuesday was missed. */
const MISSED_PATCH_DAYS = 45;
const LONG_MISSED_PATCH_DAYS = 90;
const AU_POLICY_KEY = "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU";

/**
 * Installed updates (wmic qfe) and the Windows Update policy (registry). Which updates are still pending is only
 * known after a search against Windows Update, which the scanner does not start: that would be network traffic.
 */
export async function windowsPatchState(
  host: Host,
  signal: AbortSignal,
): Promise<Reading<{ facts: JsonObject; findings: FindingInput[] }>> {
  const qfe = await host.exec("wmic", ["qfe", "get", "Caption,Description,HotFixID,InstalledOn"], { signal });
  const qfeUnavailable = commandUnavailable(qfe);
  const qfeProblem = qfeUnavailable?.message ?? null;
  const hotfixes = qfeProblem ? null : parseWmicQfe(qfe.stdout);
  const au = await host.exec("reg", ["query", AU_POLICY_KEY], { signal });
  const auUnavailable = commandUnavailable(au);
  const auProblem = auUnavailable?.message ?? null;
  if (qfeUnavailable && auUnavailable) return bothUnavailable(qfeUnavailable, auUnavailable);
  // reg exits 1 when the key does not exist: no policy, so Windows' own default (automatic) applies.
  const policy = auProblem || !au.ok ? null : parseWindowsUpdatePolicy(parseRegQuery(au.stdout));
  const newest = newestHotfix(hotfixes ?? []);
  const ageDays = newest?.installedOn
    ? Math.max(0, Math.floor((host.now().getTime() - newest.installedOn.getTime()) / DAY_MS))
    : null;
  const findings: FindingInput[] = [];
  if (newest && ageDays !== null && ageDays > MISSED_PATCH_DAYS) {
    findings.push(
      phaseFinding("patches", {
        check: "no_recent_updates",
        severity: ageDays > LONG_MISSED_PATCH_DAYS ? "high" : "medium",
        title: `No Windows update has been installed for ${ageDays} days`,
        detail: `The newest installed update is ${newest.id} (${newest.installedOn!.toISOString().slice(0, 10)}); monthly security updates released since then are missing.`,
        remediation:
          "Run Windows Update now, then keep automatic updates on (or approve updates in WSUS/Intune within days of release).",
        evidence: { newest_update: newest.id, days_since_update: ageDays, installed_updates: hotfixes!.length },
      }),
    );
  }
  const policyFinding = policy ? automaticUpdatesFinding(policy) : null;
  if (policyFinding) findings.push(policyFinding);
  return {
    facts: {
      manager: "windows_update",
      installed_updates: hotfixes?.length ?? null,
      newest_update: newest
        ? { id: newest.id, installed_on: newest.installedOn?.toISOString().slice(0, 10) ?? null }
        : null,
      days_since_update: ageDays,
      ...(qfeProblem ? { installed_updates_unavailable: qfeProblem } : {}),
      pending: null,
      pending_unavailable:
        "pending updates are only known after a Windows Update search, which the scanner does not start",
      automatic_updates: policy
        ? { policy: true, disabled: policy.disabled, au_options: policy.auOptions, wsus: policy.wsus }
        : { policy: false },
    },
    findings,
  };
}

function newestHotfix(hotfixes: readonly Hotfix[]): Hotfix | null {
  let newest: Hotfix | null = null;
  for (const h of hotfixes)
    if (h.installedOn && (!newest?.installedOn || h.installedOn > newest.installedOn)) newest = h;
  return newest;
}

/** NoAutoUpdate = 1 switches updates off; AUOptions 2 and 3 leave the installation waiting for a user. */
function automaticUpdatesFinding(policy: WindowsUpdatePolicy): FindingInput | null {
  if (!policy.disabled && policy.auOptions !== 2 && policy.auOptions !== 3) return null;
  return phaseFinding("patches", {
    check: "automatic_updates_off",
    severity: policy.disabled || policy.auOptions === 2 ? "medium" : "low",
    title: policy.disabled
      ? "Automatic Windows updates are switched off by policy"
      : "Windows updates wait for a user to install them",
    detail: policy.disabled
      ? "The NoAutoUpdate policy is set, so security fixes arrive only when someone installs them by hand."
      : `The update policy (AUOptions ${policy.auOptions}) ${policy.auOptions === 2 ? "only notifies" : "downloads updates but only notifies"}; nothing is installed until someone acts.`,
    remediation:
      'Set "Configure Automatic Updates" to install automatically on a schedule (AUOptions 4) with a deadline, by Group Policy or Intune.',
    evidence: { no_auto_update: policy.disabled, au_options: policy.auOptions, wsus: policy.wsus },
  });
}

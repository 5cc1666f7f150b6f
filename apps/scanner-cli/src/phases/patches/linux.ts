import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { phaseFinding } from "../shared/finding.js";
import type { Reading } from "../shared/unavailable.js";
import { parseAptUpgradable, unattendedUpgradesEnabled } from "./parse.js";

const DAY_MS = 86_400_000;
const STALE_INDEX_DAYS = 14;
const AUTO_UPGRADE_FILES = ["/etc/apt/apt.conf.d/20auto-upgrades", "/etc/apt/apt.conf.d/50unattended-upgrades"];

/** Pending apt updates, age of the package index, and whether unattended-upgrades is on (Debian, Ubuntu). */
export async function linuxPatchState(
  host: Host,
  signal: AbortSignal,
): Promise<Reading<{ facts: JsonObject; findings: FindingInput[] }>> {
  const r = await host.exec("apt", ["list", "--upgradable"], { signal });
  const problem = commandUnavailable(r);
  if (problem) return problem;
  const pending = parseAptUpgradable(r.stdout);
  const index = await host.fs.stat("/var/lib/apt/lists");
  const indexAgeDays = index ? Math.floor((host.now().getTime() - index.mtimeMs) / DAY_MS) : null;
  let automatic = false;
  for (const file of AUTO_UPGRADE_FILES) automatic ||= unattendedUpgradesEnabled((await host.fs.readFile(file)) ?? "");
  const findings: FindingInput[] = [];
  if (pending.security > 0) {
    findings.push(
      phaseFinding("patches", {
        check: "pending_security_updates",
        severity: "high",
        title: `${pending.security} security updates are waiting to be installed`,
        detail: `${pending.total} packages can be upgraded, ${pending.security} of them from the security archive.`,
        remediation: "Run `apt-get upgrade` now and enable unattended-upgrades for security updates.",
        evidence: {
          pending: pending.total,
          security: pending.security,
          packages: pending.packages
            .filter((p) => p.security)
            .slice(0, 50)
            .map((p) => p.name),
        },
      }),
    );
  } else if (pending.total > 0) {
    findings.push(
      phaseFinding("patches", {
        check: "pending_updates",
        severity: "low",
        title: `${pending.total} package updates are waiting to be installed`,
        detail: "None of them comes from the security archive.",
        remediation: "Install the pending updates in the next maintenance window.",
        evidence: { pending: pending.total },
      }),
    );
  }
  if (!automatic) {
    findings.push(
      phaseFinding("patches", {
        check: "automatic_updates_off",
        severity: "medium",
        title: "Security updates are not installed automatically",
        detail: "unattended-upgrades is not enabled, so fixes wait for someone to remember them.",
        remediation:
          'Install unattended-upgrades and set APT::Periodic::Unattended-Upgrade "1" (dpkg-reconfigure unattended-upgrades).',
        evidence: { checked: AUTO_UPGRADE_FILES },
      }),
    );
  }
  if (indexAgeDays !== null && indexAgeDays > STALE_INDEX_DAYS) {
    findings.push(
      phaseFinding("patches", {
        check: "stale_package_index",
        severity: "medium",
        title: `The package index was last refreshed ${indexAgeDays} days ago`,
        detail: "Updates published since then are invisible to this machine.",
        remediation: 'Refresh the index daily (APT::Periodic::Update-Package-Lists "1").',
        evidence: { index_age_days: indexAgeDays },
      }),
    );
  }
  return {
    facts: {
      manager: "apt",
      pending: pending.total,
      security: pending.security,
      automatic_updates: automatic,
      index_age_days: indexAgeDays,
    },
    findings,
  };
}

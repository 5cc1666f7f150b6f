export interface PendingUpdates {
  readonly total: number;
  readonly security: number;
  readonly packages: { name: string; security: boolean }[];
}

/** `apt list --upgradable`: `name/suite version arch [upgradable from: old]`; a `-security` suite is a security fix. */
export function parseAptUpgradable(text: string): PendingUpdates {
  const packages: { name: string; security: boolean }[] = [];
  for (const line of text.split("\n")) {
    const m = /^([^/\s]+)\/(\S+) \S+ \S+ \[upgradable from/.exec(line);
    if (m) packages.push({ name: m[1]!, security: /-security\b/.test(m[2]!) });
  }
  return { total: packages.length, security: packages.filter((p) => p.security).length, packages };
}

/** APT::Periodic::Unattended-Upgrade "1" in apt.conf.d turns on automatic installation of updates. */
export function unattendedUpgradesEnabled(aptConf: string): boolean {
  return /^\s*APT::Periodic::Unattended-Upgrade\s+"([1-9]\d*)"\s*;/m.test(aptConf);
}

import { type RegKey, regDword, regString } from "../shared/reg-query.js";

/** An installed package or application. */
export interface Software {
  readonly name: string;
  readonly version: string;
}

/**
 * Where a software list was read: package names are identities only within their ecosystem (dpkg and rpm name
 * packages; system_profiler and the uninstall registry give display names), so the eol phase needs to know which.
 */
export type SoftwareSource = "dpkg" | "rpm" | "system_profiler" | "uninstall_registry";

/** The installed software one reader listed, and from where. */
export interface InstalledSoftware {
  readonly source: SoftwareSource;
  readonly packages: Software[];
}

/** `dpkg-query -W -f='${Package}\t${Version}\n'` and `rpm -qa --qf '%{NAME}\t%{VERSION}-%{RELEASE}\n'`. */
export function parseTabbedPackages(text: string): Software[] {
  const out: Software[] = [];
  for (const line of text.split("\n")) {
    const [name, version] = line.split("\t");
    if (name?.trim() && version?.trim()) out.push({ name: name.trim(), version: version.trim() });
  }
  return out;
}

/**
 * `system_profiler SPApplicationsDataType` (text): an application per block, its name indented four spaces and
 * ending with a colon, its fields indented six. Bundles that carry no version (helper services) are not software
 * anyone patches and are left out.
 */
export function parseSystemProfilerApplications(text: string): Software[] {
  const out: Software[] = [];
  let name: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const head = /^ {4}(\S.*):$/.exec(line);
    if (head) {
      name = head[1]!;
      continue;
    }
    const version = /^ {6}Version: (.+)$/.exec(line);
    if (version && name) {
      out.push({ name, version: version[1]!.trim() });
      name = null;
    }
  }
  return out;
}

/**
 * Installed programs from `reg query …\CurrentVersion\Uninstall /s`: keys with a DisplayName, less the entries
 * Windows hides from Programs and Features (SystemComponent = 1) and updates filed under a parent product.
 */
export function parseUninstallEntries(keys: readonly RegKey[]): Software[] {
  const out: Software[] = [];
  for (const key of keys) {
    const name = regString(key, "DisplayName")?.trim();
    if (!name || regDword(key, "SystemComponent") === 1 || regString(key, "ParentKeyName")) continue;
    out.push({ name, version: regString(key, "DisplayVersion")?.trim() ?? "" });
  }
  return out;
}

export type EphiRole = "ehr" | "pacs" | "database" | "interface_engine";

const ROLE_PATTERNS: readonly [EphiRole, RegExp][] = [
  [
    "ehr",
    /openemr|eclinicalworks|nextgen|athena|cerner|\bepic\b|allscripts|dentrix|eaglesoft|open ?dental|practice ?fusion|medent|meditech|greenway|advancedmd/i,
  ],
  ["pacs", /orthanc|dcm4che|horos|osirix|conquest|clearcanvas|\bpacs\b/i],
  ["interface_engine", /mirth|rhapsody|cloverleaf|corepoint/i],
  [
    "database",
    /^(postgresql(-\d+)?|postgres|mysql-server.*|mysqld|mariadb-server.*|mariadbd|sqlservr(\.exe)?|microsoft sql server.*|mongodb(-org)?(-server)?|mongod|oracle.*database.*|redis-server)$/i,
  ],
];

/** Roles that make a machine ePHI-bearing, with the names that showed each role. */
export function classifyEphiRoles(names: readonly string[]): Map<EphiRole, string[]> {
  const roles = new Map<EphiRole, string[]>();
  for (const name of names) {
    for (const [role, pattern] of ROLE_PATTERNS) {
      if (!pattern.test(name)) continue;
      const list = roles.get(role) ?? [];
      if (!list.includes(name) && list.length < 10) list.push(name);
      roles.set(role, list);
    }
  }
  return roles;
}

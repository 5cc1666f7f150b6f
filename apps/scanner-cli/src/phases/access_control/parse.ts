/** Members of the named groups in /etc/group (`name:x:gid:member,member`). */
export function groupMembers(groupFile: string, groups: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of groupFile.split("\n")) {
    const [name, , , members] = line.split(":");
    if (name && groups.includes(name))
      out.set(
        name,
        (members ?? "")
          .split(",")
          .map((m) => m.trim())
          .filter(Boolean),
      );
  }
  return out;
}

/** Accounts with uid 0 other than root: a second, unaudited superuser. */
export function extraSuperusers(passwd: string): string[] {
  return passwd
    .split("\n")
    .map((l) => l.split(":"))
    .filter((f) => f.length >= 7 && f[2] === "0" && f[0] !== "root")
    .map((f) => f[0]!);
}

/** A numeric setting of /etc/login.defs (PASS_MAX_DAYS, PASS_MIN_LEN …), or null when unset. */
export function loginDefsNumber(text: string, key: string): number | null {
  const m = new RegExp(`^\\s*${key}\\s+(\\d+)`, "m").exec(text);
  return m ? Number(m[1]) : null;
}

/** `net localgroup Administrators`: the names between the dashed rule and the completion line. */
export function parseNetLocalgroup(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^-{10,}/.test(l));
  if (start < 0) return [];
  return lines
    .slice(start + 1)
    .map((l) => l.trim())
    .filter((l) => l && !/^The command completed/i.test(l));
}

/**
 * `dscl . -read /Groups/admin GroupMembership`: the member names on one line. A group without members prints
 * "No such key: GroupMembership"; null when the text is neither.
 */
export function parseDsclGroupMembership(text: string): string[] | null {
  const m = /^GroupMembership:(.*)$/m.exec(text);
  if (m) return m[1]!.trim().split(/\s+/).filter(Boolean);
  return /No such key: GroupMembership/.test(text) ? [] : null;
}

/** The password rules macOS enforces, from `pwpolicy getaccountpolicies`. */
export interface MacAccountPolicies {
  /** The longest `.{N,}` minimum among the password-content rules (all of them must hold), null when none sets one. */
  readonly minLength: number | null;
  /** policyAttributeMaximumFailedAuthentications, null when no lockout rule exists. */
  readonly maxFailedAttempts: number | null;
}

/** `pwpolicy getaccountpolicies`: a banner line, then the policies as an XML property list; null without one. */
export function parsePwpolicyAccountPolicies(text: string): MacAccountPolicies | null {
  if (!/<plist[\s>]/.test(text)) return null;
  const lengths = [...text.matchAll(/policyAttributePassword matches '[^']*?\.\{(\d+),/g)].map((m) => Number(m[1]));
  const lockout = /<key>policyAttributeMaximumFailedAuthentications<\/key>\s*<integer>(\d+)<\/integer>/.exec(text);
  return {
    minLength: lengths.length > 0 ? Math.max(...lengths) : null,
    maxFailedAttempts: lockout ? Number(lockout[1]) : null,
  };
}

/**
 * `sysadminctl -screenLock status` (printed on stderr after a log prefix): `screenLock is off`,
 * `screenLock delay is immediate` or `screenLock delay is N seconds`. Null for anything else (it needs the logged-in
 * user's context and says so otherwise).
 */
export function parseScreenLockStatus(text: string): { enabled: boolean; delaySeconds: number | null } | null {
  if (/screenLock is off/.test(text)) return { enabled: false, delaySeconds: null };
  if (/screenLock delay is immediate/.test(text)) return { enabled: true, delaySeconds: 0 };
  const m = /screenLock delay is (\d+) seconds?/.exec(text);
  return m ? { enabled: true, delaySeconds: Number(m[1]) } : null;
}

/** The local password and lockout policy from `net accounts` (English labels). */
export interface NetAccountsPolicy {
  readonly minPasswordLength: number | null;
  /** Failed logons before lockout; null for "Never". */
  readonly lockoutThreshold: number | null;
  readonly maxPasswordAgeDays: number | null;
}

/** `net accounts`; null when none of its lines is there (other display languages translate the labels). */
export function parseNetAccounts(text: string): NetAccountsPolicy | null {
  const field = (label: string) => new RegExp(`^${label}:\\s*(.+?)\\s*$`, "mi").exec(text)?.[1];
  const minLength = field("Minimum password length");
  const lockout = field("Lockout threshold");
  if (minLength === undefined && lockout === undefined) return null;
  const number = (value: string | undefined) => (value && /^\d+$/.test(value) ? Number(value) : null);
  return {
    minPasswordLength: number(minLength),
    lockoutThreshold: number(lockout),
    maxPasswordAgeDays: number(field("Maximum password age \\(days\\)")),
  };
}

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

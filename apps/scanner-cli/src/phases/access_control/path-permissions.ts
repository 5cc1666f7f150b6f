/**
 * Who may read or change the places where ePHI and root's secrets sit (Linux, 164.312(a)(1)): users' home directories
 * (exports, downloads, scans of records) and the system paths whose openness hands out root's credentials or root
 * itself (cron, shadow files, root's home and SSH keys). Pure: the reader stats the paths, this judges the modes.
 * Expectations follow the CIS Debian benchmark (cron og-rwx, 5.1.x; home directories 750 or stricter, 6.2.x).
 */
import type { FindingInput, JsonObject } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";

const ACCESS_CONTROL = ["164.312(a)(1)"] as const;

/** Shells that refuse logins: accounts with them own no interactive files worth guarding. */
const NO_LOGIN_SHELL = /(?:^|\/)(?:nologin|false|sync|halt|shutdown)$/;
/** Home fields that are not a home of the account's own. */
const NOT_A_HOME = new Set(["", "/", "/nonexistent", "/dev/null"]);

export interface LoginAccount {
  readonly name: string;
  readonly uid: number;
  readonly home: string;
}

/** Accounts of /etc/passwd that can log in (a real shell) and have a home directory of their own. */
export function loginAccounts(passwd: string): LoginAccount[] {
  const out: LoginAccount[] = [];
  for (const line of passwd.split("\n")) {
    const f = line.trim().split(":");
    if (f.length < 7 || line.startsWith("#")) continue;
    const [name = "", , uid = "", , , home = "", shell = ""] = f;
    if (!name || NO_LOGIN_SHELL.test(shell.trim()) || shell.trim() === "" || NOT_A_HOME.has(home)) continue;
    out.push({ name, uid: Number(uid), home });
  }
  return out;
}

/** A path and its permission bits (`stat`'s mode & 0o7777), or null when it does not exist or could not be read. */
export interface PathMode {
  readonly path: string;
  readonly mode: number | null;
}

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(3, "0");

/**
 * Home directories any other account may enter or read (a bit for "others"), or whose group may write: the CIS
 * expectation is 750 or stricter. A home that does not exist is not judged.
 */
export function homeDirectoriesFinding(
  accounts: readonly LoginAccount[],
  modes: readonly PathMode[],
): FindingInput | null {
  const byPath = new Map(modes.map((m) => [m.path, m.mode]));
  const open: JsonObject[] = [];
  for (const a of accounts) {
    const mode = byPath.get(a.home);
    if (mode === undefined || mode === null) continue;
    if ((mode & 0o007) !== 0 || (mode & 0o020) !== 0) open.push({ account: a.name, home: a.home, mode: octal(mode) });
  }
  if (open.length === 0) return null;
  return phaseFinding("access_control", {
    check: "home_directories_open",
    severity: "low",
    title:
      open.length === 1
        ? `The home directory of ${String(open[0]!.account)} is open to every account on this machine`
        : `${open.length} home directories are open to every account on this machine`,
    detail:
      "Users keep exports, downloads and scanned records in their home directories; a home that other accounts may enter lets every account on the machine read what its files allow.",
    remediation: `chmod 750 (or 700) each listed home directory, and set HOME_MODE 0750 in /etc/login.defs so new accounts get it.`,
    evidence: { homes: open },
    controls: ACCESS_CONTROL,
  });
}

/** System paths, what their mode may allow at most, and why it matters (mode bits that must be clear). */
export const SENSITIVE_PATHS: readonly { path: string; forbidden: number; why: string }[] = [
  { path: "/etc/crontab", forbidden: 0o077, why: "root's scheduled jobs" },
  { path: "/etc/cron.d", forbidden: 0o077, why: "root's scheduled jobs" },
  { path: "/etc/cron.hourly", forbidden: 0o077, why: "scripts run as root" },
  { path: "/etc/cron.daily", forbidden: 0o077, why: "scripts run as root" },
  { path: "/etc/cron.weekly", forbidden: 0o077, why: "scripts run as root" },
  { path: "/etc/cron.monthly", forbidden: 0o077, why: "scripts run as root" },
  { path: "/etc/shadow", forbidden: 0o037, why: "password hashes" },
  { path: "/etc/gshadow", forbidden: 0o037, why: "group password hashes" },
  { path: "/root", forbidden: 0o077, why: "root's home" },
  { path: "/root/.ssh", forbidden: 0o077, why: "root's SSH keys" },
];

/**
 * Sensitive system paths more open than {@link SENSITIVE_PATHS} allows. Writable by group or others is medium (every
 * such account can run commands as root or replace credentials); readable only is low (root's jobs often carry
 * backup and database credentials). Paths that do not exist are not judged.
 */
export function sensitivePathsFinding(modes: readonly PathMode[]): FindingInput | null {
  const byPath = new Map(modes.map((m) => [m.path, m.mode]));
  const open: JsonObject[] = [];
  let writable = false;
  for (const p of SENSITIVE_PATHS) {
    const mode = byPath.get(p.path);
    if (mode === undefined || mode === null || (mode & p.forbidden) === 0) continue;
    const canWrite = (mode & 0o022) !== 0;
    writable ||= canWrite;
    open.push({ path: p.path, mode: octal(mode), holds: p.why, open_to: canWrite ? "write" : "read" });
  }
  if (open.length === 0) return null;
  return phaseFinding("access_control", {
    check: "sensitive_path_permissions",
    severity: writable ? "medium" : "low",
    title: writable
      ? `${open.length} sensitive system path${open.length === 1 ? " is" : "s are"} writable by accounts other than root`
      : `${open.length} sensitive system path${open.length === 1 ? " is" : "s are"} readable by every account`,
    detail: writable
      ? "An account that can change root's scheduled jobs or credential files can make itself root, and root reads every ePHI file."
      : "Root's scheduled jobs and keys often carry credentials for backups and databases that hold ePHI; every account on the machine can read them.",
    remediation:
      "chmod og-rwx the listed paths (the CIS Debian benchmark: 600 for /etc/crontab, 700 for the cron directories, 640 root:shadow for the shadow files).",
    evidence: { paths: open },
    controls: ACCESS_CONTROL,
  });
}

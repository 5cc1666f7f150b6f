/**
 * Linux login policy from PAM and shell start-up files: the minimum password length a password change enforces,
 * whether failed logins lock an account, the idle-shell timeout, and the default umask. Pure: each function takes
 * file contents (fixtures in access_control/fixtures, provenance in phases/FIXTURES.md).
 */

/** Linux-PAM's documented defaults: pam_unix accepts 6 characters, pam_pwquality 8 (pwquality.conf's minlen). */
const PAM_UNIX_DEFAULT_MINLEN = 6;
const PWQUALITY_DEFAULT_MINLEN = 8;

interface PamLine {
  readonly type: string;
  readonly module: string;
  readonly args: readonly string[];
}

/** Active lines of a PAM service file: `type control module args…`, bracketed controls kept whole. */
function pamLines(text: string): PamLine[] {
  const out: PamLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const m = /^-?(\w+)\s+(\[[^\]]*\]|\S+)\s+(\S+)\s*(.*)$/.exec(line);
    if (!m) continue;
    out.push({ type: m[1]!, module: m[3]!.replace(/^.*\//, ""), args: m[4]!.split(/\s+/).filter(Boolean) });
  }
  return out;
}

function argNumber(args: readonly string[], key: string): number | null {
  const hit = args.find((a) => a.startsWith(`${key}=`));
  const n = hit ? Number(hit.slice(key.length + 1)) : Number.NaN;
  return Number.isInteger(n) ? n : null;
}

/** `minlen = 12` in pwquality.conf (null when unset or unreadable). */
export function pwqualityMinlen(conf: string | null): number | null {
  const m = conf ? /^\s*minlen\s*=\s*(\d{1,3})\s*$/m.exec(conf) : null;
  return m ? Number(m[1]) : null;
}

/**
 * The minimum password length the password stack enforces: pam_pwquality's (or pam_cracklib's) `minlen=`, else
 * pwquality.conf's, else its default; without either module, pam_unix's `minlen=` or its default of 6. Null when the
 * stack has no password module this reads.
 */
export function passwordMinLength(
  passwordStack: string,
  pwqualityConf: string | null,
): { minLength: number; module: string } | null {
  const lines = pamLines(passwordStack).filter((l) => l.type === "password");
  const quality = lines.find((l) => l.module === "pam_pwquality.so" || l.module === "pam_cracklib.so");
  if (quality) {
    const minLength = argNumber(quality.args, "minlen") ?? pwqualityMinlen(pwqualityConf) ?? PWQUALITY_DEFAULT_MINLEN;
    return { minLength, module: quality.module };
  }
  const unix = lines.find((l) => l.module === "pam_unix.so");
  if (!unix) return null;
  return { minLength: argNumber(unix.args, "minlen") ?? PAM_UNIX_DEFAULT_MINLEN, module: "pam_unix.so" };
}

/** Whether the auth stack locks accounts after failed logins (pam_faillock, or the older pam_tally2). */
export function lockoutConfigured(authStack: string): boolean {
  return pamLines(authStack).some(
    (l) => (l.type === "auth" || l.type === "account") && /^pam_(faillock|tally2?)\.so$/.test(l.module),
  );
}

/** The idle timeout (`TMOUT=<seconds>`) a login shell start-up file sets, the smallest if several; null if none. */
export function shellTimeoutSeconds(files: readonly string[]): number | null {
  let best: number | null = null;
  for (const text of files) {
    for (const m of text.matchAll(/^\s*(?:(?:readonly|export|declare\s+-[rx]+)\s+)?TMOUT=(\d{1,6})\b/gm)) {
      const n = Number(m[1]);
      if (n > 0 && (best === null || n < best)) best = n;
    }
  }
  return best;
}

/** `UMASK 022` in /etc/login.defs, as its octal string; null when unset. */
export function loginDefsUmask(text: string): string | null {
  return /^\s*UMASK\s+(0?[0-7]{3})\s*$/m.exec(text)?.[1] ?? null;
}

/** A umask that leaves new files readable by every account (the "other" digit allows read). */
export function umaskLetsOthersRead(umask: string): boolean {
  const other = Number.parseInt(umask.slice(-1), 8);
  return (other & 0o4) === 0;
}

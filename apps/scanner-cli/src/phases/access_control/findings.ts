import type { FindingInput, JsonObject } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";

/** NIST SP 800-63B's floor for memorised secrets. */
export const MIN_PASSWORD_LENGTH = 8;
/** More administrators than this on one workstation is a list nobody reviews. */
export const MAX_ADMINS = 3;
/** HHS guidance commonly cites 15 minutes at most for automatic logoff; a screen lock past 5 minutes is lax. */
const MAX_SCREEN_LOCK_DELAY_S = 300;

const UNIQUE_ID = ["164.312(a)(2)(i)"] as const;
const AUTOMATIC_LOGOFF = ["164.312(a)(2)(iii)"] as const;

/** What an OS-specific reader found: facts for the report and the findings they justify. */
export interface AccessControlState {
  readonly facts: JsonObject;
  readonly findings: FindingInput[];
}

export function manyAdminsFinding(admins: readonly string[], remediation: string): FindingInput | null {
  if (admins.length <= MAX_ADMINS) return null;
  return phaseFinding("access_control", {
    check: "many_admins",
    severity: "medium",
    title: `${admins.length} accounts can administer this machine`,
    detail: "Every administrator account is a path to all ePHI on it; keep the list short and reviewed.",
    remediation,
    evidence: { admins: [...admins] },
  });
}

export function weakPasswordLengthFinding(minLength: number | null, remediation: string): FindingInput | null {
  if (minLength !== null && minLength >= MIN_PASSWORD_LENGTH) return null;
  return phaseFinding("access_control", {
    check: "weak_password_policy",
    severity: "medium",
    title:
      minLength === null || minLength === 0
        ? "No minimum password length is enforced"
        : `Passwords may be as short as ${minLength} characters`,
    detail: `Short passwords fall to guessing in minutes; at least ${MIN_PASSWORD_LENGTH} characters (better 12 or more) should be required.`,
    remediation,
    evidence: { min_password_length: minLength },
    controls: UNIQUE_ID,
  });
}

export function noLockoutFinding(remediation: string): FindingInput {
  return phaseFinding("access_control", {
    check: "no_account_lockout",
    severity: "low",
    title: "Accounts are never locked after failed logins",
    detail: "Nothing stops someone at the keyboard from guessing passwords indefinitely.",
    remediation,
    evidence: { lockout_threshold: null },
    controls: UNIQUE_ID,
  });
}

export function guestEnabledFinding(remediation: string): FindingInput {
  return phaseFinding("access_control", {
    check: "guest_account_enabled",
    severity: "medium",
    title: "The guest account is enabled",
    detail:
      "Anyone can use this machine without an account of their own, so their actions cannot be traced to a person.",
    remediation,
    evidence: { guest_enabled: true },
    controls: UNIQUE_ID,
  });
}

export function automaticLoginFinding(remediation: string): FindingInput {
  return phaseFinding("access_control", {
    check: "automatic_login",
    severity: "high",
    title: "This machine logs a user in automatically at startup",
    detail: "Whoever switches it on gets that user's session and every ePHI file it can reach, without a password.",
    remediation,
    evidence: { automatic_login: true },
    controls: UNIQUE_ID,
  });
}

/** Screen lock off, or locking only after a long grace period (the automatic logoff safeguard). */
export function screenLockFinding(
  lock: { enabled: boolean; delaySeconds: number | null },
  remediation: string,
): FindingInput | null {
  if (lock.enabled && (lock.delaySeconds ?? 0) <= MAX_SCREEN_LOCK_DELAY_S) return null;
  return phaseFinding("access_control", {
    check: "screen_lock_off",
    severity: lock.enabled ? "low" : "medium",
    title: lock.enabled
      ? `The screen locks only ${Math.round((lock.delaySeconds ?? 0) / 60)} minutes after the screen saver starts`
      : "The screen does not lock when the screen saver starts or the display sleeps",
    detail: "An unattended workstation stays open to whoever walks by, with the logged-in user's access to ePHI.",
    remediation,
    evidence: { screen_lock_enabled: lock.enabled, delay_seconds: lock.delaySeconds },
    controls: AUTOMATIC_LOGOFF,
  });
}

/** HHS guidance commonly cites 15 minutes at most before an idle session is closed. */
export const MAX_SESSION_IDLE_S = 900;

/** Linux shells: no idle timeout (TMOUT), or one longer than 15 minutes (the automatic logoff safeguard). */
export function sessionTimeoutFinding(timeoutSeconds: number | null): FindingInput | null {
  if (timeoutSeconds !== null && timeoutSeconds <= MAX_SESSION_IDLE_S) return null;
  return phaseFinding("access_control", {
    check: "no_session_timeout",
    severity: "low",
    title:
      timeoutSeconds === null
        ? "Idle shell sessions are never closed (no TMOUT)"
        : `Idle shell sessions are closed only after ${Math.round(timeoutSeconds / 60)} minutes`,
    detail: "A terminal or SSH session left open keeps its user's access to ePHI for whoever finds it.",
    remediation: `Set "readonly TMOUT=${MAX_SESSION_IDLE_S}; export TMOUT" in a file under /etc/profile.d/ (and a screen lock on desktops).`,
    evidence: { tmout_seconds: timeoutSeconds },
    controls: AUTOMATIC_LOGOFF,
  });
}

/** New files readable by every account on the machine (UMASK in /etc/login.defs). */
export function permissiveUmaskFinding(umask: string): FindingInput {
  return phaseFinding("access_control", {
    check: "permissive_umask",
    severity: "low",
    title: `New files are readable by every account (default umask ${umask})`,
    detail: "Files users create, exports of patient data included, can be read by any other account on this machine.",
    remediation: "Set UMASK 027 in /etc/login.defs (and in /etc/profile for shells that do not read it).",
    evidence: { umask },
    controls: ["164.312(a)(1)"],
  });
}

/** sudo rules that run commands as root without asking who is at the keyboard. */
export function sudoWithoutPasswordFinding(rules: readonly { who: string; file: string }[]): FindingInput | null {
  if (rules.length === 0) return null;
  return phaseFinding("access_control", {
    check: "sudo_without_password",
    severity: "medium",
    title: `sudo runs commands as root without a password for ${[...new Set(rules.map((r) => r.who))].join(", ")}`,
    detail:
      "Whoever has that account's session — or its SSH key — becomes root without proving who they are, and the log cannot tell them apart.",
    remediation:
      "Remove NOPASSWD (and !authenticate) from the sudoers rules, or limit them to single, harmless commands.",
    evidence: { rules: rules.map((r) => ({ who: r.who, file: r.file })) },
    controls: ["164.312(d)", "164.312(a)(2)(i)"],
  });
}

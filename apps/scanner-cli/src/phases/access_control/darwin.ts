import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { ExecResult, Host } from "../../host/host.js";
import { commandUnavailable, unusableOutput } from "../shared/command.js";
import { defaultsBool, defaultsString, parseDefaultsDomain } from "../shared/defaults-read.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { darwinAudit } from "./darwin-audit.js";
import {
  type AccessControlState,
  automaticLoginFinding,
  guestEnabledFinding,
  manyAdminsFinding,
  noLockoutFinding,
  screenLockFinding,
  weakPasswordLengthFinding,
} from "./findings.js";
import { parseDsclGroupMembership, parsePwpolicyAccountPolicies, parseScreenLockStatus } from "./parse.js";

/** Every Mac lists root in the admin group; the account itself is disabled unless someone enabled it. */
const BUILT_IN_ADMINS = new Set(["root"]);
const PROFILE_HINT = "or enforce it with a configuration profile from your MDM";

/**
 * Local administrators (dscl), guest account and automatic login (loginwindow preferences), password policy
 * (pwpolicy), screen lock (sysadminctl) and the audit controls (OpenBSM, network time). Each read degrades on its
 * own: what could not be read is named in the facts, never guessed.
 */
export async function darwinAccessControl(host: Host, signal: AbortSignal): Promise<Reading<AccessControlState>> {
  const run = (command: string, args: string[]) => host.exec(command, args, { signal });
  const [dscl, loginwindow, pwpolicy, screenLock, audit] = await Promise.all([
    run("dscl", [".", "-read", "/Groups/admin", "GroupMembership"]),
    run("defaults", ["read", "/Library/Preferences/com.apple.loginwindow"]),
    run("pwpolicy", ["getaccountpolicies"]),
    run("sysadminctl", ["-screenLock", "status"]),
    darwinAudit(host, signal),
  ]);
  const admins = readable(dscl) ? parseDsclGroupMembership(dscl.stdout) : null;
  if (admins === null) return commandUnavailable(dscl) ?? unparsed("dscl printed no admin group membership");
  const humanAdmins = admins.filter((a) => !BUILT_IN_ADMINS.has(a));
  const login = readable(loginwindow) ? parseDefaultsDomain(loginwindow.stdout) : null;
  const guestEnabled = login ? (defaultsBool(defaultsString(login, "GuestEnabled")) ?? false) : null;
  // Only the presence of autoLoginUser matters; the account name stays out of the report.
  const autoLogin = login ? defaultsString(login, "autoLoginUser") !== undefined : null;
  const policy = readable(pwpolicy) ? parsePwpolicyAccountPolicies(pwpolicy.stdout) : null;
  // sysadminctl writes its answer to stderr.
  const lock = screenLock.notFound ? null : parseScreenLockStatus(`${screenLock.stdout}\n${screenLock.stderr}`);

  const findings: FindingInput[] = [];
  const push = (f: FindingInput | null) => f && findings.push(f);
  push(
    manyAdminsFinding(
      humanAdmins,
      "Give day-to-day users standard accounts and keep one or two reviewed administrator accounts (System Settings → Users & Groups).",
    ),
  );
  if (guestEnabled)
    push(guestEnabledFinding(`Turn off the guest user (System Settings → Users & Groups), ${PROFILE_HINT}.`));
  if (autoLogin)
    push(automaticLoginFinding(`Turn off automatic login (System Settings → Users & Groups), ${PROFILE_HINT}.`));
  if (policy) {
    push(
      weakPasswordLengthFinding(
        policy.minLength,
        "Require at least 12 characters with a passcode payload in a configuration profile (or pwpolicy setaccountpolicies).",
      ),
    );
    if (policy.maxFailedAttempts === null)
      push(
        noLockoutFinding(
          "Set a failed-login limit (maxFailedAttempts) in the passcode payload of a configuration profile.",
        ),
      );
  }
  if (lock)
    push(
      screenLockFinding(
        lock,
        `Require the password immediately after the screen saver starts or the display sleeps (System Settings → Lock Screen), ${PROFILE_HINT}.`,
      ),
    );
  findings.push(...audit.findings);
  const facts: JsonObject = {
    admins: humanAdmins,
    guest_enabled: guestEnabled,
    automatic_login: autoLogin,
    password_min_length: policy?.minLength ?? null,
    lockout_after_failed_attempts: policy?.maxFailedAttempts ?? null,
    screen_lock: lock ? { enabled: lock.enabled, delay_seconds: lock.delaySeconds } : null,
    ...audit.facts,
  };
  const missing = {
    loginwindow_unavailable: login ? null : why(loginwindow, "loginwindow preferences"),
    password_policy_unavailable: policy ? null : why(pwpolicy, "pwpolicy"),
    screen_lock_unavailable: lock
      ? null
      : (unusableOutput(screenLock) ??
        "sysadminctl did not report the screen lock (it needs the logged-in user's session)"),
  };
  for (const [key, reason] of Object.entries(missing)) if (reason) facts[key] = reason;
  return { facts, findings };
}

function readable(r: ExecResult): boolean {
  return unusableOutput(r) === null && r.ok;
}

function why(r: ExecResult, what: string): string {
  return unusableOutput(r) ?? `${what} printed nothing readable (exit code ${r.exitCode ?? "none"})`;
}

import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { privilegeGapFinding } from "../shared/privilege-gap.js";
import {
  noLockoutFinding,
  permissiveUmaskFinding,
  sessionTimeoutFinding,
  sudoWithoutPasswordFinding,
  weakPasswordLengthFinding,
} from "./findings.js";
import {
  lockoutConfigured,
  loginDefsUmask,
  passwordMinLength,
  shellTimeoutSeconds,
  umaskLetsOthersRead,
} from "./pam-policy.js";
import { type SudoWithoutPassword, sudoWithoutPassword } from "./sudoers.js";

/** Debian and Ubuntu split the PAM stacks per type; RHEL-family systems keep them in system-auth. */
const PASSWORD_STACKS = ["/etc/pam.d/common-password", "/etc/pam.d/system-auth"];
const AUTH_STACKS = ["/etc/pam.d/common-auth", "/etc/pam.d/system-auth"];
const SHELL_FILES = ["/etc/profile", "/etc/bash.bashrc"];

async function firstReadable(host: Host, paths: readonly string[]): Promise<string | null> {
  for (const p of paths) {
    const text = await host.fs.readFile(p);
    if (text !== null) return text;
  }
  return null;
}

/** Password length, lockout, idle-shell timeout and umask of a Linux machine (all readable without root). */
export async function linuxLoginPolicy(
  host: Host,
  loginDefs: string | null,
  signal?: AbortSignal,
): Promise<{ facts: JsonObject; findings: FindingInput[] }> {
  const profileD: string[] = [];
  for await (const f of host.fs.walk("/etc/profile.d", { maxFiles: 200, maxDepth: 0, signal }))
    if (f.path.endsWith(".sh")) profileD.push(f.path);
  const [passwordStack, authStack, pwquality, ...shell] = await Promise.all([
    firstReadable(host, PASSWORD_STACKS),
    firstReadable(host, AUTH_STACKS),
    host.fs.readFile("/etc/security/pwquality.conf"),
    ...[...SHELL_FILES, ...profileD.sort()].map((p) => host.fs.readFile(p)),
  ]);
  const findings: FindingInput[] = [];
  const facts: Record<string, JsonObject[string]> = {};

  const password = passwordStack === null ? null : passwordMinLength(passwordStack, pwquality);
  if (password) {
    facts.password_min_length = password.minLength;
    facts.password_module = password.module;
    const weak = weakPasswordLengthFinding(
      password.minLength,
      "Require at least 12 characters: install libpam-pwquality (or enable pam_pwquality) and set minlen = 12 in /etc/security/pwquality.conf.",
    );
    if (weak) findings.push(weak);
  } else facts.password_policy_unavailable = "no PAM password stack this scanner reads was found";

  if (authStack !== null) {
    const lockout = lockoutConfigured(authStack);
    facts.lockout_after_failed_attempts = lockout;
    if (!lockout)
      findings.push(
        noLockoutFinding(
          "Enable pam_faillock in the auth stack (Debian: pam-auth-update; RHEL: authselect enable-feature with-faillock) with deny=5 and unlock_time=900.",
        ),
      );
  } else facts.lockout_unavailable = "no PAM auth stack this scanner reads was found";

  const tmout = shellTimeoutSeconds(shell.filter((t): t is string => t !== null));
  facts.shell_timeout_seconds = tmout;
  const timeout = sessionTimeoutFinding(tmout);
  if (timeout) findings.push(timeout);

  const sudo = await sudoRules(host, signal);
  if (sudo.unreadable) {
    facts.sudo_policy_unavailable = sudo.unreadable;
    if (!host.isPrivileged)
      findings.push(
        privilegeGapFinding("access_control", {
          check: "sudo_policy",
          what: "who may use sudo without a password (/etc/sudoers)",
          reason: sudo.unreadable,
          severity: "medium",
          category: "access_control",
          controls: ["164.312(d)", "164.312(a)(2)(i)"],
        }),
      );
  } else if (sudo.rules) {
    facts.sudo_without_password = sudo.rules.map((r) => `${r.who} (${r.file})`);
    const nopass = sudoWithoutPasswordFinding(sudo.rules);
    if (nopass) findings.push(nopass);
  }

  const umask = loginDefs ? loginDefsUmask(loginDefs) : null;
  facts.default_umask = umask;
  if (umask && umaskLetsOthersRead(umask)) findings.push(permissiveUmaskFinding(umask));
  return { facts, findings };
}

/** sudoers and its drop-ins; null rules when sudo is not installed, a reason when they may not be read. */
async function sudoRules(
  host: Host,
  signal?: AbortSignal,
): Promise<{ rules: SudoWithoutPassword[] | null; unreadable?: string }> {
  if (!(await host.fs.exists("/etc/sudoers"))) return { rules: null };
  const paths = ["/etc/sudoers"];
  for await (const f of host.fs.walk("/etc/sudoers.d", { maxFiles: 200, maxDepth: 0, signal })) paths.push(f.path);
  const rules: SudoWithoutPassword[] = [];
  for (const path of paths) {
    const text = await host.fs.readFile(path);
    // sudoers is mode 0440, root's: without root it is not read, and not passed.
    if (text === null) return { rules: null, unreadable: `${path} is readable by root only` };
    rules.push(...sudoWithoutPassword(text, path));
  }
  return { rules };
}

import type { FindingInput } from "@hcs/protocol";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { unusableOutput } from "../shared/command.js";
import { phaseFinding } from "../shared/finding.js";
import { ok } from "../shared/outcome.js";
import { pamMfaModules, parseSshdEffective } from "./parse.js";

/** PAM services whose stacks decide interactive, SSH and sudo logins on Debian- and Red Hat-style systems. */
const PAM_FILES = [
  "/etc/pam.d/common-auth",
  "/etc/pam.d/sshd",
  "/etc/pam.d/login",
  "/etc/pam.d/sudo",
  "/etc/pam.d/system-auth",
  "/etc/pam.d/password-auth",
];

/**
 * Evidence of multi-factor authentication (DESIGN §3.6, phase 5): second-factor PAM modules and sshd's
 * AuthenticationMethods. Linux only for now; Windows Hello/Entra (dsregcmd) and macOS smart-card readers wait for
 * captured fixtures.
 */
export const mfaPhase = definePhase({
  id: "mfa",
  platforms: ["linux"],
  run: checkMfa,
});

async function checkMfa(ctx: PhaseContext): Promise<PhaseOutcome> {
  const modules = new Set<string>();
  const read: string[] = [];
  for (const file of PAM_FILES) {
    const text = await ctx.host.fs.readFile(file);
    if (text === null) continue;
    read.push(file);
    for (const m of pamMfaModules(text)) modules.add(m);
  }
  const sshdRun = await ctx.host.exec("sshd", ["-T"], { signal: ctx.signal });
  const sshdProblem = unusableOutput(sshdRun);
  const sshd = sshdProblem ? null : parseSshdEffective(sshdRun.stdout);
  const findings: FindingInput[] = [];
  if (modules.size === 0) {
    findings.push(
      phaseFinding("mfa", {
        check: "no_mfa_for_logins",
        severity: "medium",
        title: "No second factor protects logins on this machine",
        detail: `None of the PAM stacks read (${read.join(", ") || "none readable"}) uses a second-factor module.`,
        remediation:
          "Add a second factor to remote and privileged logins (pam_u2f, pam_duo or pam_google_authenticator), or authenticate through an MFA-enforcing identity provider.",
        evidence: { pam_files: read },
      }),
    );
  }
  const sshdMfa = sshd !== null && /,/.test(sshd.authenticationMethods);
  if (sshd?.passwordAuthentication && !sshdMfa && modules.size === 0) {
    findings.push(
      phaseFinding("mfa", {
        check: "ssh_password_without_mfa",
        severity: "high",
        title: "SSH accepts a password alone",
        detail:
          "PasswordAuthentication is on and AuthenticationMethods requires no second method: one guessed or phished password is enough.",
        remediation:
          "Set PasswordAuthentication no (keys only), or AuthenticationMethods publickey,keyboard-interactive with an OTP/U2F PAM module.",
        evidence: { password_authentication: true, authentication_methods: sshd.authenticationMethods },
      }),
    );
  }
  return ok(
    {
      pam_mfa_modules: [...modules],
      pam_files_read: read,
      sshd: sshd
        ? {
            password_authentication: sshd.passwordAuthentication,
            authentication_methods: sshd.authenticationMethods,
            mfa_required: sshdMfa,
          }
        : { unavailable: sshdProblem ?? "sshd -T printed no configuration" },
    },
    findings,
  );
}

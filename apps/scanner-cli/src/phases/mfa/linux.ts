import type { FindingInput } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { phaseFinding } from "../shared/finding.js";
import { type MfaState, noMfaForLogins } from "./findings.js";
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

/** Second-factor PAM modules and sshd's effective AuthenticationMethods. */
export async function linuxMfa(host: Host, signal: AbortSignal): Promise<MfaState> {
  const modules = new Set<string>();
  const read: string[] = [];
  for (const file of PAM_FILES) {
    const text = await host.fs.readFile(file);
    if (text === null) continue;
    read.push(file);
    for (const m of pamMfaModules(text)) modules.add(m);
  }
  const sshdRun = await host.exec("sshd", ["-T"], { signal });
  const sshdProblem = unusableOutput(sshdRun);
  const sshd = sshdProblem ? null : parseSshdEffective(sshdRun.stdout);
  const findings: FindingInput[] = [];
  if (modules.size === 0) {
    findings.push(
      noMfaForLogins(
        `None of the PAM stacks read (${read.join(", ") || "none readable"}) uses a second-factor module.`,
        "Add a second factor to remote and privileged logins (pam_u2f, pam_duo or pam_google_authenticator), or authenticate through an MFA-enforcing identity provider.",
        { pam_files: read },
      ),
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
  return {
    facts: {
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
  };
}

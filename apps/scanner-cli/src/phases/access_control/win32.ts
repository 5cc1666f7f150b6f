import type { FindingInput } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { commandUnavailable, unusableOutput } from "../shared/command.js";
import type { Reading } from "../shared/unavailable.js";
import { type AccessControlState, manyAdminsFinding, noLockoutFinding, weakPasswordLengthFinding } from "./findings.js";
import { parseNetAccounts, parseNetLocalgroup } from "./parse.js";

const GPO_HINT = "by Group Policy or Intune (Account Policies)";

/** Members of the local Administrators group and the local password policy (net.exe needs no elevation). */
export async function windowsAccessControl(host: Host, signal: AbortSignal): Promise<Reading<AccessControlState>> {
  const group = await host.exec("net", ["localgroup", "Administrators"], { signal });
  const problem = commandUnavailable(group);
  if (problem) return problem;
  const admins = parseNetLocalgroup(group.stdout);
  const accounts = await host.exec("net", ["accounts"], { signal });
  const policy = unusableOutput(accounts) ? null : parseNetAccounts(accounts.stdout);
  const findings: FindingInput[] = [];
  const many = manyAdminsFinding(
    admins,
    "Remove local administrator rights that are not needed; use LAPS for the built-in account.",
  );
  if (many) findings.push(many);
  if (policy) {
    const weak = weakPasswordLengthFinding(
      policy.minPasswordLength,
      `Set "Minimum password length" to 12 or more ${GPO_HINT}.`,
    );
    if (weak) findings.push(weak);
    if (policy.lockoutThreshold === null)
      findings.push(noLockoutFinding(`Set "Account lockout threshold" (for example 10 attempts) ${GPO_HINT}.`));
  }
  return {
    facts: {
      admins,
      password_min_length: policy?.minPasswordLength ?? null,
      lockout_threshold: policy?.lockoutThreshold ?? null,
      max_password_age_days: policy?.maxPasswordAgeDays ?? null,
      ...(policy
        ? {}
        : {
            password_policy_unavailable:
              unusableOutput(accounts) ?? "net accounts printed no policy (non-English output is not read)",
          }),
    },
    findings,
  };
}

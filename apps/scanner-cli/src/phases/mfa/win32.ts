import type { FindingInput } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { type MfaState, noMfaForLogins } from "./findings.js";
import { parseDsregcmdStatus } from "./parse.js";

/**
 * Windows Hello for Business and the Entra (Azure AD) join state from `dsregcmd /status`. The user section describes
 * the account the scan runs as, so the evidence says so; a consumer Windows Hello PIN does not appear there and is
 * not centrally enforced, which is why only a Hello for Business key counts as a second factor.
 */
export async function windowsMfa(host: Host, signal: AbortSignal): Promise<Reading<MfaState>> {
  const r = await host.exec("dsregcmd", ["/status"], { signal });
  const problem = commandUnavailable(r);
  if (problem) return problem;
  const status = parseDsregcmdStatus(r.stdout);
  if (!status) return unparsed("dsregcmd printed no device state");
  const findings: FindingInput[] = [];
  if (status.helloForBusinessKey !== true) {
    findings.push(
      noMfaForLogins(
        `The account the scan ran as has no Windows Hello for Business key (NgcSet ${status.helloForBusinessKey === false ? "NO" : "not reported"}), so it signs in to Windows with a password alone${status.azureAdJoined ? "" : ", and the machine is not joined to Microsoft Entra ID, where sign-in MFA would be enforced"}.`,
        "Join the machine to Microsoft Entra ID (or hybrid join it) and enable Windows Hello for Business by policy (Intune or Group Policy), so every sign-in needs the device-bound key plus a PIN or biometric.",
        {
          hello_for_business_key: status.helloForBusinessKey,
          hello_for_business_policy: status.helloForBusinessPolicy,
          entra_joined: status.azureAdJoined,
          domain_joined: status.domainJoined,
          user_context: "account running the scan",
        },
      ),
    );
  }
  return {
    facts: {
      entra_joined: status.azureAdJoined,
      domain_joined: status.domainJoined,
      workplace_joined: status.workplaceJoined,
      hello_for_business_key: status.helloForBusinessKey,
      hello_for_business_policy: status.helloForBusinessPolicy,
    },
    findings,
  };
}

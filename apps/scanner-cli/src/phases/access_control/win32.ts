import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { phaseFinding } from "../shared/finding.js";
import { parseNetLocalgroup } from "./parse.js";

const MAX_ADMINS = 3;

/** Members of the local Administrators group (net.exe works without elevation). */
export async function windowsAccessControl(
  host: Host,
  signal: AbortSignal,
): Promise<{ facts: JsonObject; findings: FindingInput[] } | string> {
  const r = await host.exec("net", ["localgroup", "Administrators"], { signal });
  const problem = unusableOutput(r);
  if (problem) return problem;
  const admins = parseNetLocalgroup(r.stdout);
  const findings: FindingInput[] =
    admins.length > MAX_ADMINS
      ? [
          phaseFinding("access_control", {
            check: "many_admins",
            severity: "medium",
            title: `${admins.length} accounts are local Administrators`,
            detail: "Every administrator account is a path to all ePHI on this machine.",
            remediation: "Remove local administrator rights that are not needed; use LAPS for the built-in account.",
            evidence: { admins },
          }),
        ]
      : [];
  return { facts: { admins }, findings };
}

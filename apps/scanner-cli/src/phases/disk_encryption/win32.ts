import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { parseManageBdeStatus, type VolumeEncryption } from "./parse.js";

/** BitLocker status of every volume; manage-bde needs an elevated shell. */
export async function windowsVolumes(host: Host, signal: AbortSignal): Promise<Reading<VolumeEncryption[]>> {
  const r = await host.exec("manage-bde", ["-status"], { signal });
  const problem = commandUnavailable(r);
  if (problem) return problem;
  const volumes = parseManageBdeStatus(r.stdout);
  return volumes.length > 0 ? volumes : unparsed("manage-bde listed no volume (non-English output is not read yet)");
}

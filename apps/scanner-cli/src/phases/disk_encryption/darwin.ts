import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { parseFdesetupStatus, type VolumeEncryption } from "./parse.js";

/** FileVault state of the startup volume (fdesetup status works without root). */
export async function darwinVolumes(host: Host, signal: AbortSignal): Promise<Reading<VolumeEncryption[]>> {
  const r = await host.exec("fdesetup", ["status"], { signal });
  return commandUnavailable(r) ?? parseFdesetupStatus(r.stdout) ?? unparsed("fdesetup printed an unexpected status");
}

import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { parseFdesetupStatus, type VolumeEncryption } from "./parse.js";

/** FileVault state of the startup volume (fdesetup status works without root). */
export async function darwinVolumes(host: Host, signal: AbortSignal): Promise<VolumeEncryption[] | string> {
  const r = await host.exec("fdesetup", ["status"], { signal });
  return unusableOutput(r) ?? parseFdesetupStatus(r.stdout) ?? "fdesetup printed an unexpected status";
}

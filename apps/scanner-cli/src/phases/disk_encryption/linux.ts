import type { Host } from "../../host/host.js";
import { commandUnavailable } from "../shared/command.js";
import { type Reading, unparsed } from "../shared/unavailable.js";
import { parseLsblkVolumes, type VolumeEncryption } from "./parse.js";

export const LSBLK_ARGS = ["-J", "-b", "-o", "NAME,TYPE,FSTYPE,MOUNTPOINT,SIZE,RM,RO"];

/** Fixed volumes and their dm-crypt/LUKS layering, from lsblk (no root needed). */
export async function linuxVolumes(host: Host, signal: AbortSignal): Promise<Reading<VolumeEncryption[]>> {
  const r = await host.exec("lsblk", LSBLK_ARGS, { signal });
  const problem = commandUnavailable(r);
  if (problem) return problem;
  return parseLsblkVolumes(r.stdout) ?? unparsed("lsblk printed no block device list");
}

import type { FindingInput } from "@hcs/protocol";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { phaseFinding } from "../shared/finding.js";
import { ok } from "../shared/outcome.js";
import { linuxSoftware } from "./linux.js";
import { classifyEphiRoles, type Software } from "./parse.js";

/** Software entries kept in the facts (the eol phase reads them); a workstation has far fewer. */
const MAX_SOFTWARE = 5000;

/** Hardware, OS, installed software and the ePHI-bearing roles of this machine (DESIGN §3.6, phase 8). */
export const assetInventoryPhase = definePhase({
  id: "asset_inventory",
  platforms: ["linux", "darwin", "win32"],
  run: inventory,
});

async function inventory(ctx: PhaseContext): Promise<PhaseOutcome> {
  const { host } = ctx;
  const [os, system, cpu, memoryBytes, processes, software] = await Promise.all([
    host.sysinfo.osInfo(),
    host.sysinfo.system(),
    host.sysinfo.cpu(),
    host.sysinfo.memoryBytes(),
    host.sysinfo.processes(),
    // Package inventories on macOS and Windows need tools without captured fixtures yet; running processes still
    // classify the machine there.
    host.platform === "linux"
      ? linuxSoftware(host, ctx.signal)
      : Promise.resolve("installed software is listed on Linux only"),
  ]);
  const installed: Software[] = typeof software === "string" ? [] : software;
  const roles = classifyEphiRoles([...installed.map((s) => s.name), ...new Set(processes.map((p) => p.name))]);
  const ephiRoles = [...roles.keys()];
  const findings: FindingInput[] = ephiRoles.length
    ? [
        phaseFinding("asset_inventory", {
          check: "ephi_bearing_asset",
          severity: "info",
          title: `This machine is ePHI-bearing (${ephiRoles.join(", ")})`,
          detail:
            "It runs software that stores or moves ePHI, so it must be in the device inventory and risk analysis.",
          remediation:
            "Record the device, its owner and location in the asset inventory; apply the ePHI safeguards (encryption, backups, access control).",
          evidence: Object.fromEntries([...roles].map(([role, names]) => [role, names])),
        }),
      ]
    : [];
  return ok(
    {
      hostname: os.hostname,
      os: {
        platform: os.platform,
        distro: os.distro,
        release: os.release,
        codename: os.codename,
        kernel: os.kernel,
        arch: os.arch,
        build: os.build,
      },
      hardware: {
        manufacturer: system.manufacturer,
        model: system.model,
        virtual: system.virtual,
        cpu: cpu.brand,
        cores: cpu.cores,
        memory_bytes: memoryBytes,
      },
      software_count: installed.length,
      software: installed.slice(0, MAX_SOFTWARE).map((s) => ({ name: s.name, version: s.version })),
      ...(typeof software === "string" ? { software_unavailable: software } : {}),
      ephi_roles: ephiRoles,
    },
    findings,
  );
}

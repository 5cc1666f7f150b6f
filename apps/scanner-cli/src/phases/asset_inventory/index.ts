import type { FindingInput } from "@hcs/protocol";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { phaseFinding } from "../shared/finding.js";
import { ok } from "../shared/outcome.js";
import { isUnavailable, type Reading } from "../shared/unavailable.js";
import { darwinSoftware } from "./darwin.js";
import { linuxSoftware } from "./linux.js";
import { linuxRemovableMedia, type RemovableMediaState } from "./linux-removable-media.js";
import { classifyEphiRoles, type InstalledSoftware, type Software } from "./parse.js";
import { windowsSoftware } from "./win32.js";
import { windowsRemovableMedia } from "./win32-removable-media.js";

/** Software entries kept in the facts (eol and backups read them back with softwareOf); a workstation has far fewer. */
const MAX_SOFTWARE = 5000;

/** Hardware, OS, installed software and the ePHI-bearing roles of this machine (phase 8, docs/scanner.md). */
export const assetInventoryPhase = definePhase({
  id: "asset_inventory",
  readers: { linux: linuxSoftware, darwin: darwinSoftware, win32: windowsSoftware },
  // The software list is one part of the inventory: without it, hardware and OS are still reported.
  readingIsPart: true,
  // system_profiler alone can take two minutes on a Mac full of applications.
  timeoutMs: 180_000,
  run: inventory,
});

async function inventory(ctx: PhaseContext, software: Reading<InstalledSoftware>): Promise<PhaseOutcome> {
  const { host } = ctx;
  const [os, system, cpu, memoryBytes, processes, media] = await Promise.all([
    host.sysinfo.osInfo(),
    host.sysinfo.system(),
    host.sysinfo.cpu(),
    host.sysinfo.memoryBytes(),
    host.sysinfo.processes(),
    removableMedia(ctx),
  ]);
  const installed: Software[] = isUnavailable(software) ? [] : software.packages;
  const roles = classifyEphiRoles([...installed.map((s) => s.name), ...new Set(processes.map((p) => p.name))]);
  const ephiRoles = [...roles.keys()];
  const findings: FindingInput[] = [...media.findings];
  if (ephiRoles.length)
    findings.push(
      phaseFinding("asset_inventory", {
        check: "ephi_bearing_asset",
        severity: "info",
        title: `This machine is ePHI-bearing (${ephiRoles.join(", ")})`,
        detail: "It runs software that stores or moves ePHI, so it must be in the device inventory and risk analysis.",
        remediation:
          "Record the device, its owner and location in the asset inventory; apply the ePHI safeguards (encryption, backups, access control).",
        evidence: Object.fromEntries([...roles].map(([role, names]) => [role, names])),
      }),
    );
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
      ...(isUnavailable(software) ? {} : { software_source: software.source }),
      software: installed.slice(0, MAX_SOFTWARE).map((s) => ({ name: s.name, version: s.version })),
      ...(isUnavailable(software) ? { software_unavailable: software.message } : {}),
      ephi_roles: ephiRoles,
      ...media.facts,
    },
    findings,
    { removable_media: media.notAssessed },
  );
}

/** USB mass storage (164.310(d)(1)), read per platform; macOS keeps its restriction in MDM profiles, not read. */
function removableMedia(ctx: PhaseContext): Promise<RemovableMediaState> {
  if (ctx.host.platform === "linux") return linuxRemovableMedia(ctx.host);
  if (ctx.host.platform === "win32") return windowsRemovableMedia(ctx.host, ctx.signal);
  return Promise.resolve({
    facts: {},
    findings: [],
    notAssessed: "a removable-media restriction on macOS lives in an MDM profile, which is not read (docs/scanner.md)",
  });
}

import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { mapBounded } from "../shared/bounded.js";
import { unusableOutput } from "../shared/command.js";
import { privilegeGapFinding } from "../shared/privilege-gap.js";
import { parseNeedrestartBatch, replacedLibrariesFinding, replacedMappings } from "./replaced-libraries.js";

/** maps of the largest processes here are under 100 KB; a JVM with thousands of mappings stays under 1 MiB. A procfs read allocates its cap, so it is kept small, with four reads in flight. */
const MAX_MAPS_BYTES = 1024 * 1024;
const DELETED = " (deleted)";

export interface ReplacedLibrariesState {
  readonly facts: JsonObject;
  readonly findings: FindingInput[];
  readonly notAssessed: string | null;
}

/**
 * Processes mapping files an update replaced. As root, every process's /proc/<pid>/maps is read (other users'
 * maps are root's to read): that sees processes of no service too, which needrestart leaves out where it cannot
 * attribute them (no systemd as PID 1). Without root, `needrestart -b` (when installed) names the services; else
 * the check is named as not assessed.
 */
export async function linuxReplacedLibraries(host: Host, signal?: AbortSignal): Promise<ReplacedLibrariesState> {
  if (host.isPrivileged) {
    const processes = await host.sysinfo.processes();
    if (processes.length > 0) {
      const hits = await mapBounded(processes, 4, async (p) => {
        if (signal?.aborted) return null;
        const bytes = await host.fs.readBytes(`/proc/${p.pid}/maps`, MAX_MAPS_BYTES);
        // Most processes map nothing deleted: only those are decoded (150 maps as text cost the scan ~10 MiB).
        if (!bytes || !Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(DELETED)) return null;
        return replacedMappings(new TextDecoder().decode(bytes)).length > 0 ? p.name : null;
      });
      const names = hits.filter((n): n is string => n !== null);
      const finding = replacedLibrariesFinding(names, "proc_maps", names.length);
      return {
        facts: {
          replaced_libraries: { source: "proc_maps", processes_checked: processes.length, processes: names.length },
        },
        findings: finding ? [finding] : [],
        notAssessed: null,
      };
    }
  }
  const nr = await host.exec("needrestart", ["-b"], { signal, timeoutMs: 60_000 });
  const problem = unusableOutput(nr);
  const report = problem ? null : parseNeedrestartBatch(nr.stdout);
  if (!report) {
    const notAssessed = `processes' memory maps need root and needrestart ${problem ? "is not available" : "printed no batch report"}`;
    return {
      facts: {},
      // Without root the maps were not read: the gap counts as the check's finding (medium). As root with no
      // process listed, nothing was kept from this run.
      findings: host.isPrivileged
        ? []
        : [
            privilegeGapFinding("patches", {
              check: "replaced_libraries",
              what: "which processes still run code an update replaced (/proc/<pid>/maps)",
              reason: notAssessed,
              severity: "medium",
              category: "asset_management",
            }),
          ],
      notAssessed,
    };
  }
  const finding = replacedLibrariesFinding(report.services, "needrestart", report.services.length);
  return {
    facts: {
      replaced_libraries: {
        source: "needrestart",
        services: report.services.length,
        kernel_status: report.kernelStatus,
      },
    },
    findings: finding ? [finding] : [],
    notAssessed: null,
  };
}

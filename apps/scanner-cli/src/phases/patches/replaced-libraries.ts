/**
 * Services still running the code an update replaced: after a library or program is upgraded, processes that
 * started before keep the old file mapped (the kernel shows it as `<path> (deleted)` in /proc/<pid>/maps) until they
 * restart, so the fix is installed but not in effect. What needrestart does; pure parsers and the finding. Only
 * counts and process names are reported, never paths inside processes or file contents.
 */
import type { FindingInput } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";

/**
 * Mappings that are deleted by nature, not replaced by an update: shared memory, devices, memfd, aio, JIT and
 * temporary files (needrestart's `blacklist_mappings`, Debian 3.6, plus System V segments of any key).
 */
const NOT_REPLACED = [
  /^\/(SYSV[0-9a-f]{8}|drm(\s|$)|dev\/)/,
  /^\/memfd:/,
  /^\/\[aio\]/,
  /\/orcexec\.\w+$/,
  /\/#\d+$/,
  /\/jna\d+\.tmp$/,
  /^(\/var)?\/tmp\//,
  /^(\/var)?\/run\//,
];

/** The replaced files a process maps, from its /proc/<pid>/maps: paths whose mapping says `(deleted)`. */
export function replacedMappings(maps: string): string[] {
  const out = new Set<string>();
  for (const line of maps.split("\n")) {
    // address perms offset dev inode pathname — the pathname is everything after the fifth field.
    const m = /^\S+\s+\S+\s+\S+\s+\S+\s+\d+\s+(\/.*) \(deleted\)$/.exec(line);
    if (m && !NOT_REPLACED.some((re) => re.test(m[1]!))) out.add(m[1]!);
  }
  return [...out];
}

export interface NeedrestartReport {
  /** Services needrestart would restart (`NEEDRESTART-SVC`). */
  readonly services: string[];
  /** Kernel state: 0 unknown, 1 current, 2 ABI-compatible upgrade pending, 3 a newer kernel is installed. */
  readonly kernelStatus: number | null;
}

/** `needrestart -b` (batch mode, the apt-dater protocol); null when it printed no `NEEDRESTART-VER` line. */
export function parseNeedrestartBatch(text: string): NeedrestartReport | null {
  if (!/^NEEDRESTART-VER:/m.test(text)) return null;
  const services = [...text.matchAll(/^NEEDRESTART-SVC:\s*(\S+)\s*$/gm)].map((m) => m[1]!);
  const ksta = /^NEEDRESTART-KSTA:\s*(\d)\s*$/m.exec(text)?.[1];
  return { services, kernelStatus: ksta === undefined ? null : Number(ksta) };
}

/** Process names and services shown in the finding; the count covers them all. */
const MAX_NAMES = 30;

/** The finding when some processes still run replaced code; `source` says how they were found. */
export function replacedLibrariesFinding(
  processes: readonly string[],
  source: "proc_maps" | "needrestart",
  processCount: number,
): FindingInput | null {
  if (processCount === 0) return null;
  const names = [...new Set(processes)].sort();
  return phaseFinding("patches", {
    check: "services_on_replaced_libraries",
    severity: "medium",
    title: `${processCount} ${source === "needrestart" ? "services run" : "processes run"} code replaced by an update (${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""})`,
    detail:
      "The updated libraries or programs are installed, but these processes started before the update and still run the old, vulnerable code until they restart.",
    remediation:
      "Restart the listed services (needrestart -r a restarts them after each upgrade), or reboot in the next maintenance window.",
    evidence: {
      process_count: processCount,
      [source === "needrestart" ? "services" : "processes"]: names.slice(0, MAX_NAMES),
      source,
    },
  });
}

import type { PhaseResult, Platform } from "@hcs/protocol";
import type { FakeHost } from "../../host/fake-host.js";
import { runPhases } from "../../runner/run-phases.js";
import { buildScanScope } from "../../runner/scope.js";
import { PHASE_REGISTRY } from "../registry.js";
import { bareLinuxPersona, darwinPersona, linuxEhrServerPersona, linuxPersona, win32Persona } from "./personas.js";

/**
 * Every phase's result on each persona, as an upload would carry them: the scanner's half of a practice, kept as
 * JSON beside this file (fixtures/persona-scans/<name>.json) so the server's tests and `npm run demo` upload what the scanner
 * really says about each persona (persona-scans.test.ts holds the files equal to a fresh run).
 */
export const PERSONAS = {
  "linux-frontdesk": linuxPersona,
  "linux-ehr-server": linuxEhrServerPersona,
  "darwin-laptop": darwinPersona,
  "win32-frontdesk": win32Persona,
  "linux-bare": bareLinuxPersona,
} as const satisfies Record<string, () => FakeHost>;

export type PersonaName = keyof typeof PERSONAS;

/** A persona's scan, without what changes from run to run (durations: `duration_ms`, and facts such as `scan_ms`). */
export interface PersonaScan {
  readonly persona: PersonaName;
  readonly host: {
    readonly hostname: string;
    readonly platform: Platform;
    readonly os_name: string;
    readonly os_version: string;
    readonly arch: string;
  };
  /** The persona's clock: when its scan ran (backup ages are judged at this moment). */
  readonly scanned_at: string;
  readonly phases: PhaseResult[];
}

export async function runPersonaScan(persona: PersonaName): Promise<PersonaScan> {
  const host = PERSONAS[persona]();
  const os = await host.sysinfo.osInfo();
  const scope = await buildScanScope(undefined, {
    resolve: host.net.resolve,
    interfaces: host.sysinfo.networkInterfaces,
  });
  const phases = await runPhases({
    host,
    phases: PHASE_REGISTRY,
    scope,
    options: { ephiPaths: [] },
    timeoutMs: 20_000,
  });
  return {
    persona,
    host: {
      hostname: os.hostname,
      platform: host.platform,
      os_name: os.distro || os.platform,
      os_version: os.release,
      arch: os.arch,
    },
    scanned_at: host.now().toISOString(),
    phases: phases.map((p) => ({ ...p, duration_ms: 0, facts: withoutTimings(p.facts) as PhaseResult["facts"] })),
  };
}

function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k.endsWith("_ms") && typeof v === "number" ? 0 : withoutTimings(v)]),
  );
}

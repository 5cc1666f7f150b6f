import type { FindingInput, HipaaControlId, JsonObject, PhaseId, PhaseStatus, Platform } from "@hcs/protocol";
import { phaseDescriptor } from "@hcs/protocol";
import type { Host } from "../host/host.js";

/** What the operator asked the network phases to look at (DESIGN §3.6: network scope is opt-in). */
export interface ScanScope {
  /** `host`: no targets given, this machine only through loopback; `targets`: explicit list; `auto`: local subnets. */
  readonly mode: "host" | "targets" | "auto";
  /** Expanded IP addresses to probe (loopback only in `host` mode). */
  readonly hosts: readonly string[];
  /** The targets as given (CIDRs, names), for the report. */
  readonly given: readonly string[];
  /**
   * The addresses the targets given by name resolved to: the upload lists them after the given targets, so the
   * server knows which hosts the network phases examined (it resolves nothing itself).
   */
  readonly named?: readonly string[];
}

export interface PhaseOptions {
  /** Paths the ePHI phase pattern-scans (--ephi-paths). */
  readonly ephiPaths: readonly string[];
  /** Ports the port phase probes; default the common-ports list. */
  readonly ports?: readonly number[];
}

export interface PhaseContext {
  readonly host: Host;
  readonly scope: ScanScope;
  readonly options: PhaseOptions;
  /** Aborted on the phase's timeout or when the user cancels; long loops must check it. */
  readonly signal: AbortSignal;
  /** Outcomes of phases this one declared in `dependsOn` (absent when that phase did not run). */
  readonly earlier: ReadonlyMap<PhaseId, PhaseOutcome>;
  /** Verbose diagnostics (shown with --verbose); never ePHI, never secrets. */
  log(message: string): void;
}

/** What a phase returns; the runner adds id and duration. */
export interface PhaseOutcome {
  readonly status: PhaseStatus;
  readonly facts: JsonObject;
  readonly findings: FindingInput[];
  readonly reason?: string;
  readonly error?: { code: string; message: string };
}

export interface PhaseDefinition {
  readonly id: PhaseId;
  /** Platforms with an implementation; on others the runner records `unsupported` without calling run. */
  readonly platforms: readonly Platform[];
  /** Phases whose outcomes this one reads (ordering); independent phases may run concurrently. */
  readonly dependsOn?: readonly PhaseId[];
  /** Default time budget; the runner aborts the phase's signal when it runs out. */
  readonly timeoutMs?: number;
  run(ctx: PhaseContext): Promise<PhaseOutcome>;
}

export interface Phase extends PhaseDefinition {
  readonly title: string;
  readonly controls: readonly HipaaControlId[];
  readonly touchesNetwork: boolean;
}

/** Declares a phase; title, controls and network flag come from the protocol's phase table. */
export function definePhase(def: PhaseDefinition): Phase {
  const d = phaseDescriptor(def.id);
  return { ...def, title: d.title, controls: d.controls, touchesNetwork: d.touchesNetwork };
}

import type { FindingInput, HipaaControlId, JsonObject, PhaseId, PhaseStatus, Platform } from "@hcs/protocol";
import { PLATFORMS, phaseDescriptor } from "@hcs/protocol";
import type { Host } from "../host/host.js";
import type { Reading } from "./shared/unavailable.js";

/** What the operator asked the network phases to look at (network scope is opt-in: docs/scanner.md#network-scope). */
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

interface PhaseBasics {
  readonly id: PhaseId;
  /** Phases whose outcomes this one reads (ordering); independent phases may run concurrently. */
  readonly dependsOn?: readonly PhaseId[];
  /** Default time budget; the runner aborts the phase's signal when it runs out. */
  readonly timeoutMs?: number;
}

/** A phase that is the same on every platform it lists (network phases, file scans, the dataset match). */
export interface PhaseDefinition extends PhaseBasics {
  /** Platforms with an implementation; on others the runner records `unsupported` without calling run. */
  readonly platforms: readonly Platform[];
  run(ctx: PhaseContext): Promise<PhaseOutcome>;
}

/** What one platform's reader does: read this machine through the host (phases/<id>/<platform>.ts). */
export type PlatformReader<T> = (host: Host, signal: AbortSignal) => Promise<Reading<T>>;

/**
 * A phase whose facts are read differently on each OS, declared once: one reader per platform it supports (the
 * runner records `unsupported` on the others), called by the runner before `run`. When the reader answers
 * Unavailable, the runner ends the phase (status by kind, runner/unavailable-outcome.ts) without calling `run`.
 */
export interface ReaderPhaseDefinition<T> extends PhaseBasics {
  readonly readers: Readonly<Partial<Record<Platform, PlatformReader<T>>>>;
  run(ctx: PhaseContext, reading: T): Promise<PhaseOutcome>;
}

/**
 * As {@link ReaderPhaseDefinition}, for a phase whose reading is one part among others: `run` gets an unavailable
 * reading too, and records that part as not read.
 */
export interface PartReaderPhaseDefinition<T> extends PhaseBasics {
  readonly readers: Readonly<Partial<Record<Platform, PlatformReader<T>>>>;
  readonly readingIsPart: true;
  run(ctx: PhaseContext, reading: Reading<T>): Promise<PhaseOutcome>;
}

export interface Phase extends PhaseBasics {
  readonly title: string;
  readonly controls: readonly HipaaControlId[];
  readonly touchesNetwork: boolean;
  /** Platforms with an implementation (a reader, for phases with per-OS readers). */
  readonly platforms: readonly Platform[];
  /** This platform's reader, if the phase has per-OS readers; the runner calls it before `run`. */
  readonly read?: (ctx: PhaseContext) => Promise<unknown>;
  /** Whether an unavailable reading ends the phase (runner) rather than going to `run`. */
  readonly readingRequired: boolean;
  run(ctx: PhaseContext, reading?: unknown): Promise<PhaseOutcome>;
}

/** Declares a phase; title, controls and network flag come from the protocol's phase table. */
export function definePhase(def: PhaseDefinition): Phase;
export function definePhase<T>(def: ReaderPhaseDefinition<T>): Phase;
export function definePhase<T>(def: PartReaderPhaseDefinition<T>): Phase;
export function definePhase<T>(def: PhaseDefinition | ReaderPhaseDefinition<T> | PartReaderPhaseDefinition<T>): Phase {
  const d = phaseDescriptor(def.id);
  const basics = {
    id: def.id,
    ...(def.dependsOn ? { dependsOn: def.dependsOn } : {}),
    ...(def.timeoutMs ? { timeoutMs: def.timeoutMs } : {}),
    title: d.title,
    controls: d.controls,
    touchesNetwork: d.touchesNetwork,
  };
  if (!("readers" in def))
    return { ...basics, platforms: def.platforms, readingRequired: false, run: (ctx) => def.run(ctx) };
  const readers = def.readers;
  return {
    ...basics,
    // In the protocol's platform order, whatever order the readers were written in.
    platforms: PLATFORMS.filter((p) => readers[p] !== undefined),
    read: (ctx) => readers[ctx.host.platform]!(ctx.host, ctx.signal),
    readingRequired: !("readingIsPart" in def),
    run: (ctx, reading) => def.run(ctx, reading as T),
  };
}

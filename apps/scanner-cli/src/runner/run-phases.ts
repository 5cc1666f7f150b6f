import { setMaxListeners } from "node:events";
import { type PhaseId, type PhaseResult, PhaseResultSchema } from "@hcs/protocol";
import type { Host } from "../host/host.js";
import type { Phase, PhaseContext, PhaseOptions, PhaseOutcome, ScanScope } from "../phases/phase.js";
import { failed, skipped, unsupported } from "../phases/shared/outcome.js";
import { isUnavailable } from "../phases/shared/unavailable.js";
import type { RunnerEvent } from "./events.js";
import { withNetworkScope } from "./network-guard.js";
import { orderByDependencies, protocolRank } from "./topo-order.js";
import { unavailableOutcome } from "./unavailable-outcome.js";

export interface RunPhasesInput {
  readonly host: Host;
  readonly phases: readonly Phase[];
  readonly scope: ScanScope;
  readonly options: PhaseOptions;
  /** Time budget of every phase (overrides the phases' own defaults, as `--timeout` does). */
  readonly timeoutMs?: number;
  /** Cancels the scan: running phases end as failed (`cancelled`), phases not yet started as skipped. */
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: RunnerEvent) => void;
  /** Phases running at once (default 4); network phases always run one at a time. */
  readonly concurrency?: number;
}

const DEFAULT_PHASE_TIMEOUT_MS = 120_000;
const DEFAULT_CONCURRENCY = 4;
const MAX_TEXT = 500;

type Settled = { readonly phase: Phase; readonly result: PhaseResult; readonly outcome: PhaseOutcome };

/**
 * Runs the phases in dependency order, independent ones concurrently, each under its own timeout and the scan's
 * cancellation. Always resolves with one result per phase, in protocol order: a phase that throws, hangs or
 * returns malformed output is recorded as failed and the scan goes on.
 */
export async function runPhases(input: RunPhasesInput): Promise<PhaseResult[]> {
  const { ordered, cyclic } = orderByDependencies(input.phases);
  const results = new Map<PhaseId, PhaseResult>();
  const outcomes = new Map<PhaseId, PhaseOutcome>();
  for (const phase of cyclic) {
    results.set(phase.id, record(input, phase, failed("dependency_cycle", "the phase's dependencies form a cycle"), 0));
  }
  const limit = Math.max(1, input.concurrency ?? DEFAULT_CONCURRENCY);
  const waiting = [...ordered];
  const running = new Map<PhaseId, Promise<Settled>>();
  const present = new Set(ordered.map((p) => p.id));
  const isReady = (p: Phase) => (p.dependsOn ?? []).every((d) => !present.has(d) || outcomes.has(d));
  const networkBusy = () => [...running.keys()].some((id) => input.phases.find((p) => p.id === id)?.touchesNetwork);

  while (waiting.length > 0 || running.size > 0) {
    for (let i = 0; i < waiting.length && running.size < limit; ) {
      const phase = waiting[i]!;
      if (!isReady(phase) || (phase.touchesNetwork && networkBusy())) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      running.set(phase.id, runOne(input, phase, outcomes));
    }
    if (running.size === 0) break;
    const settled = await Promise.race(running.values());
    running.delete(settled.phase.id);
    outcomes.set(settled.phase.id, settled.outcome);
    results.set(settled.phase.id, settled.result);
  }
  return [...results.values()].sort((a, b) => protocolRank(a.id) - protocolRank(b.id));
}

async function runOne(
  input: RunPhasesInput,
  phase: Phase,
  outcomes: ReadonlyMap<PhaseId, PhaseOutcome>,
): Promise<Settled> {
  const settle = (outcome: PhaseOutcome, durationMs: number): Settled => {
    const result = record(input, phase, outcome, durationMs);
    return { phase, result, outcome: { ...outcome, status: result.status } };
  };
  if (input.signal?.aborted) return settle(skipped("the scan was cancelled"), 0);
  if (!phase.platforms.includes(input.host.platform))
    return settle(unsupported(`${phase.title} has no ${input.host.platform} implementation`), 0);
  input.onEvent?.({ type: "phase_started", id: phase.id, title: phase.title });
  const started = performance.now();
  const outcome = await runWithBudget(input, phase, outcomes);
  return settle(outcome, Math.round(performance.now() - started));
}

async function runWithBudget(
  input: RunPhasesInput,
  phase: Phase,
  outcomes: ReadonlyMap<PhaseId, PhaseOutcome>,
): Promise<PhaseOutcome> {
  const controller = new AbortController();
  // Scanners attach one listener per socket in flight; thousands are expected, not a leak.
  setMaxListeners(0, controller.signal);
  const timeoutMs = input.timeoutMs ?? phase.timeoutMs ?? DEFAULT_PHASE_TIMEOUT_MS;
  let stop: (o: PhaseOutcome) => void = () => undefined;
  const stopped = new Promise<PhaseOutcome>((resolve) => {
    stop = resolve;
  });
  const timer = setTimeout(() => {
    controller.abort();
    stop(failed("phase_timeout", `the phase did not finish within ${timeoutMs} ms`));
  }, timeoutMs);
  const onCancel = () => {
    controller.abort();
    stop(failed("cancelled", "the scan was cancelled while the phase ran"));
  };
  input.signal?.addEventListener("abort", onCancel, { once: true });
  const earlier = new Map<PhaseId, PhaseOutcome>();
  for (const dep of phase.dependsOn ?? []) {
    const o = outcomes.get(dep);
    if (o) earlier.set(dep, o);
  }
  const ctx: PhaseContext = {
    host: withNetworkScope(input.host, input.scope.hosts, (target) =>
      input.onEvent?.({ type: "phase_log", id: phase.id, message: `refused a probe outside the scope: ${target}` }),
    ),
    scope: input.scope,
    options: input.options,
    signal: controller.signal,
    earlier,
    log: (message) => input.onEvent?.({ type: "phase_log", id: phase.id, message }),
  };
  const work = (async () => {
    if (phase.read === undefined) return phase.run(ctx);
    // The phase's reader for this platform first; an unavailable reading ends it the same way for every phase.
    const reading = await phase.read(ctx);
    if (phase.readingRequired && isUnavailable(reading)) return unavailableOutcome(reading);
    return phase.run(ctx, reading);
  })().catch((error: unknown) =>
    failed("phase_error", error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
  );
  try {
    return await Promise.race([work, stopped]);
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onCancel);
    // A phase that lost the race keeps running until it notices the abort; its late answer is ignored.
    controller.abort();
  }
}

/** The wire result of a phase, validated against the protocol: malformed output is itself a failure. */
function record(input: RunPhasesInput, phase: Phase, outcome: PhaseOutcome, durationMs: number): PhaseResult {
  const candidate = {
    id: phase.id,
    status: outcome.status,
    duration_ms: durationMs,
    ...(outcome.reason ? { reason: outcome.reason.slice(0, MAX_TEXT) } : {}),
    ...(outcome.error
      ? { error: { code: outcome.error.code.slice(0, 100), message: outcome.error.message.slice(0, MAX_TEXT) } }
      : {}),
    facts: outcome.facts,
    findings: outcome.findings,
  };
  const parsed = PhaseResultSchema.safeParse(candidate);
  let result: PhaseResult;
  if (parsed.success) {
    result = parsed.data;
  } else {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join(".")}: ${i.message}`)
      .join("; ");
    const message = `the phase returned output outside the protocol (${where})`.slice(0, MAX_TEXT);
    result = {
      id: phase.id,
      status: "failed",
      duration_ms: durationMs,
      reason: message,
      error: { code: "invalid_phase_output", message },
      facts: {},
      findings: [],
    };
  }
  input.onEvent?.({
    type: "phase_finished",
    id: phase.id,
    title: phase.title,
    status: result.status,
    findings: result.findings.length,
    duration_ms: result.duration_ms,
    ...(result.reason ? { reason: result.reason } : {}),
  });
  return result;
}

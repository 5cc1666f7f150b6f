import type { PhaseId, PhaseResult, PhaseStatus } from "@hcs/protocol";
import { Listr } from "listr2";
import type { Phase } from "../phases/phase.js";
import type { RunnerEvent } from "../runner/events.js";
import { type Output, paint } from "./output.js";

export interface Progress {
  onEvent(event: RunnerEvent): void;
  /** Settles every phase from the final results (a phase may end without an event) and draws the last frame. */
  finish(results: readonly PhaseResult[]): Promise<void>;
}

const MARK: Record<PhaseStatus, string> = {
  ok: "ok",
  failed: "FAILED",
  skipped: "skipped",
  unsupported: "unsupported",
};

function line(output: Output, e: Extract<RunnerEvent, { type: "phase_finished" }>): string {
  const status =
    e.status === "ok"
      ? paint(output, "green", MARK.ok)
      : e.status === "failed"
        ? paint(output, "red", MARK.failed)
        : paint(output, "dim", MARK[e.status]);
  const findings = e.findings > 0 ? `, ${e.findings} finding${e.findings === 1 ? "" : "s"}` : "";
  const reason = e.reason && e.status !== "ok" ? ` — ${e.reason}` : "";
  return `${e.title}: ${status} (${(e.duration_ms / 1000).toFixed(1)} s${findings})${reason}`;
}

/** Plain lines on stderr (logs, CI): one when a phase starts with --verbose, one when it ends. */
export function plainProgress(output: Output, verbose: boolean): Progress {
  return {
    onEvent(e) {
      if (e.type === "phase_started" && verbose) output.err(`${e.title}: started`);
      else if (e.type === "phase_finished") output.err(line(output, e));
      else if (e.type === "phase_log" && verbose) output.err(`  [${e.id}] ${e.message}`);
    },
    finish: async () => undefined,
  };
}

export function silentProgress(): Progress {
  return { onEvent: () => undefined, finish: async () => undefined };
}

/** Live per-phase view on a terminal (listr2): each phase a line that spins, then shows its outcome. */
export function liveProgress(output: Output, phases: readonly Phase[], verbose: boolean): Progress {
  const waiters = new Map<PhaseId, (e: Extract<RunnerEvent, { type: "phase_finished" }>) => void>();
  const finished = new Map<PhaseId, Promise<Extract<RunnerEvent, { type: "phase_finished" }>>>();
  for (const p of phases) finished.set(p.id, new Promise((r) => waiters.set(p.id, r)));
  const list = new Listr(
    phases.map((p) => ({
      title: p.title,
      task: async (_ctx: unknown, task: { title: string; output: string; skip(message?: string): void }) => {
        const e = await finished.get(p.id)!;
        task.title = line(output, e);
        // The title says it all already: a skip message would print the same words again below it.
        if (e.status === "skipped" || e.status === "unsupported") task.skip();
        if (e.status === "failed") throw new Error(line(output, e));
      },
    })),
    {
      concurrent: true,
      exitOnError: false,
      registerSignalListeners: false,
      collectErrors: false,
      rendererOptions: { collapseErrors: false, collapseSkips: false, showErrorMessage: true },
    },
  );
  const running = list.run().catch(() => undefined);
  return {
    onEvent(e) {
      if (e.type === "phase_finished") waiters.get(e.id)?.(e);
      else if (e.type === "phase_log" && verbose) output.err(`  [${e.id}] ${e.message}`);
    },
    async finish(results) {
      for (const r of results) {
        const phase = phases.find((p) => p.id === r.id);
        waiters.get(r.id)?.({
          type: "phase_finished",
          id: r.id,
          title: phase?.title ?? r.id,
          status: r.status,
          findings: r.findings.length,
          duration_ms: r.duration_ms,
          ...(r.reason ? { reason: r.reason } : {}),
        });
      }
      await running;
    },
  };
}

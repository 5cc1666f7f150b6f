import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { ok, skipped } from "../shared/outcome.js";
import { linuxPatchState } from "./linux.js";

/**
 * Pending updates, index freshness, automatic updates (DESIGN §3.6, phase 9). Linux (apt) only for now: the
 * macOS (softwareupdate) and Windows (Windows Update agent) readers wait for captured fixtures.
 */
export const patchesPhase = definePhase({
  id: "patches",
  platforms: ["linux"],
  timeoutMs: 120_000,
  run: checkPatches,
});

async function checkPatches(ctx: PhaseContext): Promise<PhaseOutcome> {
  const state = await linuxPatchState(ctx.host, ctx.signal);
  if (typeof state === "string") return skipped(state);
  return ok(state.facts, state.findings);
}

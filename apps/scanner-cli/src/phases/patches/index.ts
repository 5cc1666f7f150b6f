import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { ok, skipped } from "../shared/outcome.js";
import { darwinPatchState } from "./darwin.js";
import { linuxPatchState } from "./linux.js";
import { windowsPatchState } from "./win32.js";

/**
 * Pending updates, last update time, automatic updates (DESIGN §3.6, phase 9): apt on Linux, Software Update's
 * own record on macOS, installed updates and the update policy on Windows. No reader contacts an update server.
 */
export const patchesPhase = definePhase({
  id: "patches",
  platforms: ["linux", "darwin", "win32"],
  timeoutMs: 120_000,
  run: checkPatches,
});

async function checkPatches(ctx: PhaseContext): Promise<PhaseOutcome> {
  const { host, signal } = ctx;
  const state =
    host.platform === "win32"
      ? await windowsPatchState(host, signal)
      : host.platform === "darwin"
        ? await darwinPatchState(host, signal)
        : await linuxPatchState(host, signal);
  if (typeof state === "string") return skipped(state);
  return ok(state.facts, state.findings);
}

import { definePhase } from "../phase.js";
import { ok } from "../shared/outcome.js";
import { darwinPatchState } from "./darwin.js";
import { linuxPatchState } from "./linux.js";
import { windowsPatchState } from "./win32.js";

/**
 * Pending updates, last update time, automatic updates (DESIGN §3.6, phase 9): apt on Linux, Software Update's
 * own record on macOS, installed updates and the update policy on Windows. No reader contacts an update server.
 */
export const patchesPhase = definePhase({
  id: "patches",
  readers: { linux: linuxPatchState, darwin: darwinPatchState, win32: windowsPatchState },
  timeoutMs: 120_000,
  run: async (_ctx, state) => ok(state.facts, state.findings),
});

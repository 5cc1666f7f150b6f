import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { ok, skipped } from "../shared/outcome.js";
import { linuxAccessControl } from "./linux.js";
import { windowsAccessControl } from "./win32.js";

/**
 * Local administrators and unique identification (DESIGN §3.6, phase 6). Linux and Windows; macOS (dscl,
 * pwpolicy) waits for captured fixtures. Guest account, password policy and screen lock on Windows likewise.
 */
export const accessControlPhase = definePhase({
  id: "access_control",
  platforms: ["linux", "win32"],
  run: checkAccessControl,
});

async function checkAccessControl(ctx: PhaseContext): Promise<PhaseOutcome> {
  const state =
    ctx.host.platform === "win32"
      ? await windowsAccessControl(ctx.host, ctx.signal)
      : await linuxAccessControl(ctx.host);
  if (typeof state === "string") return skipped(state);
  return ok(state.facts, state.findings);
}

import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { ok, skipped } from "../shared/outcome.js";
import { darwinMfa } from "./darwin.js";
import { linuxMfa } from "./linux.js";
import { windowsMfa } from "./win32.js";

/**
 * Evidence of multi-factor authentication (DESIGN §3.6, phase 5): second-factor PAM modules and sshd's
 * AuthenticationMethods on Linux, Windows Hello for Business and the Entra join on Windows, smart card enforcement
 * on macOS.
 */
export const mfaPhase = definePhase({
  id: "mfa",
  platforms: ["linux", "darwin", "win32"],
  run: checkMfa,
});

async function checkMfa(ctx: PhaseContext): Promise<PhaseOutcome> {
  const { host, signal } = ctx;
  const state =
    host.platform === "win32"
      ? await windowsMfa(host, signal)
      : host.platform === "darwin"
        ? await darwinMfa(host, signal)
        : await linuxMfa(host, signal);
  if (typeof state === "string") return skipped(state);
  return ok(state.facts, state.findings);
}

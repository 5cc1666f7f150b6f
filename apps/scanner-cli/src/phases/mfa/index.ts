import { definePhase } from "../phase.js";
import { ok } from "../shared/outcome.js";
import { darwinMfa } from "./darwin.js";
import { linuxMfa } from "./linux.js";
import { windowsMfa } from "./win32.js";

/**
 * Evidence of multi-factor authentication (phase 5, docs/scanner.md): second-factor PAM modules and sshd's
 * AuthenticationMethods on Linux, Windows Hello for Business and the Entra join on Windows, smart card enforcement
 * on macOS.
 */
export const mfaPhase = definePhase({
  id: "mfa",
  readers: { linux: linuxMfa, darwin: darwinMfa, win32: windowsMfa },
  run: async (_ctx, state) => ok(state.facts, state.findings),
});

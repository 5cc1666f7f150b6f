import { definePhase } from "../phase.js";
import { ok } from "../shared/outcome.js";
import { darwinAccessControl } from "./darwin.js";
import { linuxAccessControl } from "./linux.js";
import { windowsAccessControl } from "./win32.js";

/**
 * Local administrators, guest account and automatic login, password policy and screen lock (phase 6, docs/scanner.md).
 * Linux reads /etc files; macOS dscl, loginwindow preferences, pwpolicy and sysadminctl; Windows net.exe. Audit
 * controls (164.312(b)) live here too: journald, auditd and timedatectl; auditpol, wevtutil and w32tm; OpenBSM's
 * audit_control and systemsetup. The Windows guest account and screen lock are not read yet (no captured output of
 * the commands that show them).
 */
export const accessControlPhase = definePhase({
  id: "access_control",
  readers: { linux: linuxAccessControl, darwin: darwinAccessControl, win32: windowsAccessControl },
  run: async (_ctx, state) => {
    // The readers name each part they could not read as `<part>_unavailable` in the facts.
    const unavailable = Object.entries(state.facts).flatMap(([key, value]) =>
      key.endsWith("_unavailable") && typeof value === "string" ? [[key.slice(0, -"_unavailable".length), value]] : [],
    );
    return ok(state.facts, state.findings, Object.fromEntries(unavailable));
  },
});

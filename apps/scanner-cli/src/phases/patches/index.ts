import type { FindingInput, JsonObject } from "@hcs/protocol";
import { unavailableOutcome } from "../../runner/unavailable-outcome.js";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { ok } from "../shared/outcome.js";
import { isUnavailable, type Reading } from "../shared/unavailable.js";
import { darwinPatchState } from "./darwin.js";
import { linuxPatchState } from "./linux.js";
import { linuxReplacedLibraries } from "./linux-replaced-libraries.js";
import { judgeMalware } from "./malware.js";
import { malwareReading } from "./malware-readers.js";
import { windowsPatchState } from "./win32.js";

type UpdateState = { facts: JsonObject; findings: FindingInput[] };

/**
 * Pending updates, last update time, automatic updates (phase 9, docs/scanner.md): apt on Linux, Software Update's
 * own record on macOS, installed updates and the update policy on Windows. No reader contacts an update server.
 * The phase's control, 164.308(a)(5)(ii)(B), is protection from malicious software: anti-malware products and,
 * on Linux, processes still running code an update replaced are read here too (docs/scanner.md).
 */
export const patchesPhase = definePhase({
  id: "patches",
  readers: { linux: linuxPatchState, darwin: darwinPatchState, win32: windowsPatchState },
  // The update record is one part: a machine without apt still has (or lacks) anti-malware.
  readingIsPart: true,
  timeoutMs: 120_000,
  run: patchState,
});

async function patchState(ctx: PhaseContext, updates: Reading<UpdateState>): Promise<PhaseOutcome> {
  const platform = ctx.host.platform;
  const [malware, libraries] = await Promise.all([
    malwareReading(platform, ctx.host, ctx.signal).then((r) => judgeMalware(platform, r)),
    platform === "linux" ? linuxReplacedLibraries(ctx.host, ctx.signal) : null,
  ]);
  // Nothing read at all: the phase ends as any phase whose reading is unavailable.
  if (isUnavailable(updates) && malware.notAssessed && (!libraries || libraries.notAssessed))
    return unavailableOutcome(updates);
  const facts = isUnavailable(updates) ? {} : updates.facts;
  const findings = isUnavailable(updates) ? [] : updates.findings;
  return ok(
    { ...facts, ...malware.facts, ...(libraries?.facts ?? {}) },
    [...findings, ...malware.findings, ...(libraries?.findings ?? [])],
    {
      package_updates: isUnavailable(updates) ? updates.message : null,
      malware_protection: malware.notAssessed,
      replaced_libraries: libraries?.notAssessed,
    },
  );
}

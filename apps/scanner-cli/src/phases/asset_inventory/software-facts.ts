import { z } from "zod";
import type { PhaseOutcome } from "../phase.js";
import type { Software, SoftwareSource } from "./parse.js";

/** The `software` list of the asset_inventory phase's facts; other phases read it back with {@link softwareOf}. */
const InventorySoftwareSchema = z.object({ software: z.array(z.object({ name: z.string(), version: z.string() })) });
const SOURCES = ["dpkg", "rpm", "system_profiler", "uninstall_registry"] as const satisfies readonly SoftwareSource[];
const SourceSchema = z.object({ software_source: z.enum(SOURCES) });

/**
 * The installed software an earlier asset_inventory phase recorded, or null when its facts hold no usable list
 * (the phase did not run, or did not complete).
 */
export function softwareOf(outcome: PhaseOutcome | undefined): Software[] | null {
  const parsed = InventorySoftwareSchema.safeParse(outcome?.facts);
  return parsed.success ? parsed.data.software : null;
}

/** Where that list was read (null when the facts do not say, as from a scanner before the source was recorded). */
export function softwareSourceOf(outcome: PhaseOutcome | undefined): SoftwareSource | null {
  const parsed = SourceSchema.safeParse(outcome?.facts);
  return parsed.success ? parsed.data.software_source : null;
}

import { z } from "zod";
import type { PhaseOutcome } from "../phase.js";
import type { Software } from "./parse.js";

/** The `software` list of the asset_inventory phase's facts; other phases read it back with {@link softwareOf}. */
const InventorySoftwareSchema = z.object({ software: z.array(z.object({ name: z.string(), version: z.string() })) });

/**
 * The installed software an earlier asset_inventory phase recorded, or null when its facts hold no usable list
 * (the phase did not run, or did not complete).
 */
export function softwareOf(outcome: PhaseOutcome | undefined): Software[] | null {
  const parsed = InventorySoftwareSchema.safeParse(outcome?.facts);
  return parsed.success ? parsed.data.software : null;
}

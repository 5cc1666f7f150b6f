import type { PhaseId } from "@hcs/protocol";
import { z } from "zod";
import type { PhaseOutcome } from "./phase.js";

const InventoryFactsSchema = z.object({ ephi_roles: z.array(z.string()) });
const EphiFlowFactsSchema = z.object({ files_flagged: z.int().min(0) });

/**
 * Whether earlier phases showed this machine holds ePHI: EHR, PACS or database software installed (asset_inventory)
 * or suspected ePHI files found (ephi_flow). Drives the unencrypted_ephi_device grade cap.
 */
export function ephiBearingEvidence(earlier: ReadonlyMap<PhaseId, PhaseOutcome>): {
  bearing: boolean;
  reasons: string[];
} {
  const reasons: string[] = [];
  const inventory = InventoryFactsSchema.safeParse(earlier.get("asset_inventory")?.facts);
  if (inventory.success && inventory.data.ephi_roles.length > 0) {
    reasons.push(`${inventory.data.ephi_roles.join(", ")} software installed`);
  }
  const flow = EphiFlowFactsSchema.safeParse(earlier.get("ephi_flow")?.facts);
  if (flow.success && flow.data.files_flagged > 0) reasons.push(`${flow.data.files_flagged} files with suspected ePHI`);
  return { bearing: reasons.length > 0, reasons };
}

import { accessControlPhase } from "./access_control/index.js";
import { assetInventoryPhase } from "./asset_inventory/index.js";
import { backupsPhase } from "./backups/index.js";
import { discoveryPhase } from "./discovery/index.js";
import { diskEncryptionPhase } from "./disk_encryption/index.js";
import { eolPhase } from "./eol/index.js";
import { ephiFlowPhase } from "./ephi_flow/index.js";
import { mfaPhase } from "./mfa/index.js";
import { patchesPhase } from "./patches/index.js";
import type { Phase } from "./phase.js";
import { portsPhase } from "./ports/index.js";
import { segmentationPhase } from "./segmentation/index.js";
import { tlsPhase } from "./tls/index.js";

/**
 * The 12 phases in protocol order (docs/scanner.md#what-each-phase-reads): an explicit list, no discovery by
 * filesystem.
 */
export const PHASE_REGISTRY: readonly Phase[] = [
  discoveryPhase,
  portsPhase,
  tlsPhase,
  diskEncryptionPhase,
  mfaPhase,
  accessControlPhase,
  segmentationPhase,
  assetInventoryPhase,
  patchesPhase,
  eolPhase,
  backupsPhase,
  ephiFlowPhase,
];

/** The `anchoring` entry of /readyz's details: never a reason for 503 (the log works without anchors). */
export type AnchoringStatus =
  | { readonly status: "not_configured"; readonly message: string }
  | {
      readonly status: "ok" | "degraded";
      readonly chain_id: number;
      readonly contract: string;
      /** Checkpoints not anchored yet (null until the first round). */
      readonly pending: number | null;
      /** Of those, the ones whose last round failed. */
      readonly failing: number;
      /** The latest failure (no key, no RPC URL). */
      readonly last_error: string | null;
      readonly last_finalized_size: number | null;
      readonly last_finalized_at: string | null;
    };

/** What /readyz asks for the anchoring state (answered from memory: readiness never waits on the chain). */
export interface AnchoringStatusSource {
  status(): AnchoringStatus;
}

export const NOT_CONFIGURED: AnchoringStatus = {
  status: "not_configured",
  message:
    "audit checkpoints are not anchored: HCS_ANCHOR_RPC_URL, HCS_ANCHOR_CHAIN_ID, HCS_ANCHOR_KEY_FILE and HCS_ANCHOR_CONTRACT are unset",
};

import { engineCapabilities } from "../store/engine-capabilities.js";
import type { Executor } from "../store/hot-sql.js";
import type { Engine } from "../store/migrations/engine.js";
import { loggingEventsQuery } from "./logging-events.js";

/**
 * Where one evidence record (`scan:<id>`, `job:<id>`) stands in the audit log (docs/audit.md#evidence):
 * - `not_logged`: no event logged it (an external scan completed before completion events were logged);
 * - `pending`: logged, not yet covered by a signed checkpoint (the sequencer hashes it within a second; checkpoints
 *   are signed every HCS_CHECKPOINT_INTERVAL_S);
 * - `awaiting_anchor`: covered by a signed checkpoint, none of whose anchors is final yet (anchoring in use);
 * - `proved`: covered by a signed checkpoint, and by a finalized anchor when anchoring is in use.
 */
export type EvidenceLogState = "not_logged" | "pending" | "awaiting_anchor" | "proved";

export interface EvidenceCoverage {
  readonly records: readonly { readonly ref: string; readonly state: EvidenceLogState }[];
  /** The latest signed checkpoint (null before the first). */
  readonly checkpoint: { readonly size: number; readonly created_at: string } | null;
  /**
   * Anchoring is in use when the latest checkpoint has an anchor record: the anchoring loop gives every checkpoint
   * one when HCS_ANCHOR_* is configured (audit.md#anchoring), and none otherwise.
   */
  readonly anchoring: boolean;
  /** The largest checkpoint whose anchor is final (null when none is). */
  readonly anchored: { readonly size: number; readonly chain_id: number; readonly finalized_at: string | null } | null;
}

/** The coverage of `refs` in the audit log, read through `db` (the store, or a transaction). */
export async function readEvidenceCoverage(
  db: Executor,
  engine: Engine,
  refs: readonly string[],
): Promise<EvidenceCoverage> {
  const [events, checkpoint, anchorOfLatest, anchored] = await Promise.all([
    refs.length === 0
      ? []
      : loggingEventsQuery({ db: db as never, audit: engineCapabilities(engine).audit }, refs).execute(),
    db
      .selectFrom("audit_checkpoints")
      .select(["size", "created_at"])
      .orderBy("size", "desc")
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom("audit_anchors")
      .select("size")
      .where(
        "size",
        "=",
        db.selectFrom("audit_checkpoints").select((eb) => eb.fn.max("size").as("size")),
      )
      .executeTakeFirst(),
    db
      .selectFrom("audit_anchors")
      .select(["size", "chain_id", "finalized_at"])
      .where("state", "=", "finalized")
      .orderBy("size", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  const leafOf = new Map<string, number | null>();
  for (const e of events)
    if (e.resource && !leafOf.has(e.resource))
      leafOf.set(e.resource, e.leaf_index === null ? null : Number(e.leaf_index));
  const size = checkpoint ? Number(checkpoint.size) : 0;
  const anchoring = anchorOfLatest !== undefined;
  const anchoredSize = anchored ? Number(anchored.size) : 0;
  const records = [...new Set(refs)].map((ref) => {
    if (!leafOf.has(ref)) return { ref, state: "not_logged" as const };
    const leaf = leafOf.get(ref);
    if (leaf === null || leaf === undefined || leaf >= size) return { ref, state: "pending" as const };
    if (anchoring && leaf >= anchoredSize) return { ref, state: "awaiting_anchor" as const };
    return { ref, state: "proved" as const };
  });
  return {
    records,
    checkpoint: checkpoint ? { size, created_at: checkpoint.created_at } : null,
    anchoring,
    anchored: anchored
      ? { size: anchoredSize, chain_id: Number(anchored.chain_id), finalized_at: anchored.finalized_at }
      : null,
  };
}

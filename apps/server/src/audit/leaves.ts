import { HASH_BYTES } from "@hcs/protocol";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../store/schema.js";

/**
 * The leaf hashes of the log's first `size` leaves, in index order, as bytes. Proofs are computed from them: a read
 * of the sequencer's runs, whose leaves are stored back to back (one row per run, not per leaf). Fails when the
 * runs do not hold `size` leaves from index 0 without a gap: the log would be broken, and no proof may be made from it.
 */
export async function readLeafHashes(db: Kysely<Database> | Transaction<Database>, size: number): Promise<Buffer[]> {
  if (size === 0) return [];
  const runs = await db
    .selectFrom("audit_sequence_runs")
    .select(["first_index", "first_id", "last_id", "leaf_hashes"])
    .where("first_index", "<", size)
    .orderBy("first_index")
    .execute();
  const leaves: Buffer[] = [];
  for (const run of runs) {
    const count = Number(run.last_id) - Number(run.first_id) + 1;
    const hashes = run.leaf_hashes;
    if (Number(run.first_index) !== leaves.length || !hashes || hashes.length !== count * HASH_BYTES) break;
    for (let i = 0; i < count && leaves.length < size; i++)
      leaves.push(hashes.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES));
  }
  if (leaves.length !== size) throw new Error(`the audit log has ${leaves.length} leaves below size ${size}`);
  return leaves;
}

import type { Kysely, Transaction } from "kysely";
import type { Database } from "../store/schema.js";

/**
 * The leaf hashes of the log's first `size` leaves, in index order, as bytes. Proofs are computed from them (a read
 * of 32 bytes per event: ~1 s per million events on SQLite, see docs/performance.md). Fails when the store holds
 * fewer sequenced leaves than the size says: the log would be broken, and no proof may be made from it.
 */
export async function readLeafHashes(db: Kysely<Database> | Transaction<Database>, size: number): Promise<Buffer[]> {
  if (size === 0) return [];
  const rows = await db
    .selectFrom("audit_events")
    .select("leaf_hash")
    .where("leaf_index", "is not", null)
    .where("leaf_index", "<", size)
    .orderBy("leaf_index")
    .execute();
  if (rows.length !== size) throw new Error(`the audit log has ${rows.length} leaves below size ${size}`);
  return rows.map((r) => Buffer.from(r.leaf_hash, "hex"));
}

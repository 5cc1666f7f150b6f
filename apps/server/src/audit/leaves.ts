import type { Kysely, Transaction } from "kysely";
import type { Database } from "../store/schema.js";

/**
 * The leaf hashes of the log's first `size` leaves, in index order, as bytes. Proofs are computed from them (a read
 * of the narrow audit_leaves table: 32 bytes and an index per leaf, see docs/performance.md). Fails when the store
 * holds fewer leaves than the size says: the log would be broken, and no proof may be made from it.
 */
export async function readLeafHashes(db: Kysely<Database> | Transaction<Database>, size: number): Promise<Buffer[]> {
  if (size === 0) return [];
  const rows = await db
    .selectFrom("audit_leaves")
    .select("leaf_hash")
    .where("leaf_index", "<", size)
    .orderBy("leaf_index")
    .execute();
  if (rows.length !== size) throw new Error(`the audit log has ${rows.length} leaves below size ${size}`);
  return rows.map((r) => r.leaf_hash);
}

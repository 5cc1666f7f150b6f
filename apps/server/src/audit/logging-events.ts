import { sql } from "kysely";
import type { Store } from "../store/store.js";
import { EVIDENCE_OPERATIONS } from "./evidence-operations.js";

/**
 * The query of `loggingEvents` (audit/evidence.ts). PostgreSQL finds the events through its evidence index on the fields' columns
 * (migration 014); SQLite through its evidence table, where the writers file the events of the evidence operations
 * by resource (migration 026: the partial index it replaces made every audited call parse its record).
 */
export function loggingEventsQuery(store: Pick<Store, "db" | "audit">, refs: readonly string[]) {
  const entries = store.db
    .selectFrom("audit_entries")
    .selectAll()
    .where("outcome", "=", "success")
    .where("action", "in", [...EVIDENCE_OPERATIONS])
    .orderBy("id");
  if (!store.audit.evidenceTable) return entries.where("resource", "in", refs);
  return entries.where(
    "id",
    "in",
    sql<number>`(select event_id from audit_evidence where resource in (${sql.join(refs)}))`,
  );
}

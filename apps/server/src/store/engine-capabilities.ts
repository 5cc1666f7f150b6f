import { type RawBuilder, type SelectQueryBuilder, sql, type Transaction } from "kysely";
import type { Engine } from "./migrations/engine.js";
import type { Database } from "./schema.js";

/**
 * What the two engines do differently that code outside the store must decide on, named by the difference itself
 * rather than by the engine (docs/architecture.md): the store answers, the callers call. Only these two objects
 * know which engine does what; everything else asks `store.locks` / `store.audit` (or `engineCapabilities(engine)`
 * where only the engine's name is at hand).
 */
export interface EngineCapabilities {
  readonly locks: EngineLocks;
  readonly audit: AuditLayout;
}

/** Row and transaction locks. */
export interface EngineLocks {
  /**
   * Rows several workers may claim at once (due jobs, due deliveries): the query's rows locked, those another
   * transaction holds skipped (PostgreSQL: FOR UPDATE SKIP LOCKED). The embedded store has one writer and its write
   * transaction excludes every other: the query as it is.
   */
  claim<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** `claim` for a statement written as raw SQL: the clause to end it with (empty on the embedded store). */
  readonly claimClause: RawBuilder<unknown>;
  /**
   * A row read to be changed in the same transaction, held until it ends, waiting for another holder (PostgreSQL:
   * FOR UPDATE). The embedded store's write transaction already excludes every other: the query as it is.
   */
  lockForUpdate<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * Serializes the transactions that take the lock `key` (one at a time until each ends; PostgreSQL: an advisory
   * transaction lock). Nothing on the embedded store, whose write transactions (BEGIN IMMEDIATE) are one at a time.
   */
  exclusive(trx: Transaction<Database>, key: number): Promise<void>;
}

/**
 * How each engine stores the audit trail (docs/audit.md; the migrations named) and what its writers guarantee.
 * On PostgreSQL they are all false.
 */
export interface AuditLayout {
  /**
   * One writer at a time hands ids out in commit order (SQLite): an event above the last id sequenced is one committed
   * after it, the sequencer needs no mark per event (PostgreSQL's `leaf_index`, set when an event gets its leaf: its
   * concurrent writers commit out of id order), and the journal's runs, in index order, hold ascending ids.
   */
  readonly idsInCommitOrder: boolean;
  /**
   * Each event's canonical record is stored as its text (audit_records, migrations 024–025), its fields read from
   * it; PostgreSQL stores the fields in audit_events' columns and builds the record when it hashes.
   */
  readonly recordText: boolean;
  /**
   * The events of the evidence operations are filed by resource in audit_evidence by their writers (migration 026);
   * PostgreSQL finds them through an index on the fields' columns (migration 014).
   */
  readonly evidenceTable: boolean;
  /**
   * audit_context has no index on its time (migration 026: it cost every audited call a B-tree insert); its rows
   * are keyed by event id, so a time window is found through the ids (with `idsInCommitOrder`, times rise with them).
   */
  readonly contextUnindexedByTime: boolean;
}

const NO_CLAUSE = sql``;
const SKIP_LOCKED = sql` for update skip locked`;

const POSTGRES: EngineCapabilities = {
  locks: {
    claim: (query) => query.forUpdate().skipLocked(),
    claimClause: SKIP_LOCKED,
    lockForUpdate: (query) => query.forUpdate(),
    async exclusive(trx, key) {
      await sql`select pg_advisory_xact_lock(${sql.lit(key)})`.execute(trx);
    },
  },
  audit: { idsInCommitOrder: false, recordText: false, evidenceTable: false, contextUnindexedByTime: false },
};

const SQLITE: EngineCapabilities = {
  locks: {
    claim: (query) => query,
    claimClause: NO_CLAUSE,
    lockForUpdate: (query) => query,
    async exclusive() {},
  },
  audit: { idsInCommitOrder: true, recordText: true, evidenceTable: true, contextUnindexedByTime: true },
};

/** The capabilities of an engine (the store's own are `store.locks` and `store.audit`). */
export function engineCapabilities(engine: Engine): EngineCapabilities {
  return engine === "sqlite" ? SQLITE : POSTGRES;
}

import { auditRecordJson, auditRecordOf } from "../services/audit.js";
import type { AuditEventsTable } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { gapOf, hashedHere, type LogPage, type LogReader } from "./log-page.js";
import { openSqliteLogReader } from "./sqlite-log-reader.js";
import { HASH_BYTES } from "./verify-tree.js";

type Row = Pick<
  AuditEventsTable,
  | "at"
  | "request_id"
  | "actor_key_id"
  | "actor_account_id"
  | "actor_operator"
  | "action"
  | "transport"
  | "resource"
  | "outcome"
  | "status"
  | "code"
  | "salt"
> & { id: number | string; leaf_index: number | string | null };

const PAGE_SQL = `select id, at, request_id, actor_key_id, actor_account_id, actor_operator, action, transport,
  resource, outcome, status, code, salt, leaf_index from audit_events where id >= ? and id <= ? order by id`;

/**
 * A reader through the store, the records rebuilt and hashed in JavaScript: the reference the stores' own readers are
 * held equal to in tests (log-pages.case.test.ts).
 */
export function storeLogReader(store: Store): LogReader {
  return {
    inFlight: 1,
    async read(fromId, count, firstIndex) {
      const rows = await store.hot.all<Row>(store.db, PAGE_SQL, [fromId, fromId + count - 1]);
      const { held, nextId } = gapOf(
        rows.map((r) => Number(r.id)),
        fromId,
      );
      const kept = rows.slice(0, held);
      const page = hashedHere(
        kept.map((r) => `\0${auditRecordJson(auditRecordOf(r, r.salt))}`),
        held < count ? nextId : undefined,
      );
      // Marks exist only where ids commit out of order (store.audit): each kept event's must be its index.
      if (store.audit.idsInCommitOrder) return page;
      const bad = kept.findIndex(
        (r) => (r.leaf_index === null ? null : Number(r.leaf_index)) !== firstIndex + (Number(r.id) - fromId),
      );
      return {
        ...page,
        badMark:
          bad < 0 ? null : { at: bad, mark: kept[bad]!.leaf_index === null ? null : Number(kept[bad]!.leaf_index) },
      };
    },
    close() {},
  };
}

/** A JSON string or null, as PostgreSQL text (to_json escapes as JSON.stringify does: RFC 8785's escaping). */
const pgJson = (column: string) => `coalesce(to_json(${column})::text, 'null')`;

/**
 * PostgreSQL builds each record's canonical JSON (keys in sorted order, the same shape as auditRecordJson and
 * SQLite's stored record; `actor.operator` only when set) as UTF-8 bytes after 0x00 — the leaf input. Over audit_events as `e`.
 */
export const PG_LEAF_INPUT = `'\\x00'::bytea || convert_to('{"actor":{"account_id":' || ${pgJson("e.actor_account_id")}
    || ',"key_id":' || ${pgJson("e.actor_key_id")}
    || case when e.actor_operator is null then '' else ',"operator":' || ${pgJson("e.actor_operator")} end
    || '},"code":' || ${pgJson("e.code")} || ',"operation":' || ${pgJson("e.action")}
    || ',"outcome":' || ${pgJson("e.outcome")} || ',"request_id":' || ${pgJson("e.request_id")}
    || ',"resource":' || ${pgJson("e.resource")} || ',"salt":' || ${pgJson("e.salt")}
    || ',"status":' || ${pgJson("e.status")} || ',"time":' || ${pgJson("e.at")}
    || ',"transport":' || ${pgJson("e.transport")} || ',"v":1}', 'UTF8')`;

/**
 * The verifier's page on PostgreSQL, one row for the whole page: the database builds every record and hashes it
 * (sha256, in the backend: another process, so another core), and answers the leaves back to back in id order, how
 * many events it held, and the first whose mark is not its leaf index. JavaScript only compares and builds the tree.
 */
const PG_PAGE_SQL = `select count(*) as held,
    string_agg(sha256(${PG_LEAF_INPUT}), ''::bytea order by e.id) as leaves,
    min(e.id) filter (where e.leaf_index is distinct from e.id - ?::bigint + ?::bigint) as bad_mark_id
  from audit_events e where e.id >= ? and e.id <= ?`;
const PG_IDS_SQL = "select id, leaf_index from audit_events where id >= ? and id <= ? order by id";

/** Pages asked for at once on PostgreSQL: the backends build and hash them on the other cores meanwhile. */
const PG_IN_FLIGHT = 4;

/** The verifier's reader on PostgreSQL (see PG_PAGE_SQL). */
export function postgresLogReader(store: Store): LogReader {
  return {
    inFlight: PG_IN_FLIGHT,
    async read(fromId, count, firstIndex) {
      const lastId = fromId + count - 1;
      const [row] = await store.hot.all<{
        held: number | string;
        leaves: Buffer | null;
        bad_mark_id: number | string | null;
      }>(store.db, PG_PAGE_SQL, [fromId, firstIndex, fromId, lastId]);
      let held = Number(row?.held ?? 0);
      let nextId: number | null | undefined;
      const badId = row?.bad_mark_id == null ? null : Number(row.bad_mark_id);
      let badMark: LogPage["badMark"] = null;
      if (held < count || badId !== null) {
        const rows = await store.hot.all<{ id: number | string; leaf_index: number | string | null }>(
          store.db,
          PG_IDS_SQL,
          [fromId, lastId],
        );
        const gap = gapOf(
          rows.map((r) => Number(r.id)),
          fromId,
        );
        held = Math.min(held, gap.held);
        if (held < count) nextId = gap.nextId;
        if (badId !== null && badId - fromId < held) {
          const mark = rows[badId - fromId]!.leaf_index;
          badMark = { at: badId - fromId, mark: mark === null ? null : Number(mark) };
        }
      }
      // The leaves as latin1 (one character a byte); a leaf is a 32-character slice of it.
      const leaves = row?.leaves ? row.leaves.toString("latin1") : "";
      return {
        held,
        leafHash: (i) => leaves.slice(i * HASH_BYTES, (i + 1) * HASH_BYTES),
        badMark,
        ...(nextId !== undefined ? { nextId } : {}),
      };
    },
    close() {},
  };
}

/** The verifier's reader for a store: each engine's own, which builds the records in the database. */
export function logReaderFor(store: Store): LogReader {
  return store.file !== undefined ? openSqliteLogReader(store.file) : postgresLogReader(store);
}

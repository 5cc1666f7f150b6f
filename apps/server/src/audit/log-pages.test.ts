import { hash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAuditEvent } from "../services/audit.js";
import { openStore, type Store } from "../store/store.js";
import { openSqliteLogReader, storeLogReader } from "./log-pages.js";
import { sequenceAuditLog } from "./sequencer.js";

// SQLite builds the records' canonical JSON for the verifier (json_object); the log's leaves were hashed from
// JavaScript's. They must agree byte for byte on every string a field can hold, or a verify would report
// untouched events as altered.

const dir = mkdtempSync(join(tmpdir(), "hcs-log-pages-"));
let store: Store;
beforeAll(async () => {
  store = openStore({ engine: "sqlite", file: join(dir, "hcs.sqlite") });
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Any Unicode text, control characters, quotes and backslashes included (no lone surrogates: not UTF-8). */
const text = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0xd7ff }),
      fc.integer({ min: 0xe000, max: 0x10ffff }),
    ),
    { maxLength: 24 },
  )
  .map((cps) => String.fromCodePoint(...cps));

describe("the verifier's SQLite page reader", () => {
  it("rebuilds every record exactly as JavaScript hashed it", async () => {
    let next = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          request_id: text,
          account: fc.option(text),
          key: fc.option(text),
          operator: fc.option(text),
          action: text,
          resource: fc.option(text),
          code: fc.option(text),
          status: fc.integer({ min: 100, max: 599 }),
        }),
        async (f) => {
          await store.db.transaction().execute((trx) =>
            recordAuditEvent(trx, {
              at: new Date(1_790_000_000_000 + next).toISOString(),
              request_id: f.request_id,
              actor_account_id: f.account,
              actor_key_id: f.key,
              actor_operator: f.operator,
              action: f.action,
              transport: "cli",
              resource: f.resource,
              outcome: "success",
              status: f.status,
              code: f.code,
            }),
          );
          await sequenceAuditLog(store);
          const entry = await store.db
            .selectFrom("audit_entries")
            .selectAll()
            .orderBy("id", "desc")
            .limit(1)
            .executeTakeFirstOrThrow();
          const sqlite = openSqliteLogReader(join(dir, "hcs.sqlite"));
          const [fromSqlite] = await sqlite.read(entry.id, entry.id, 1);
          sqlite.close();
          const [fromJs] = await storeLogReader(store).read(entry.id, entry.id, 1);
          expect(entry.leaf_index).toBe(next);
          next++;
          expect(fromSqlite!.leafInput).toBe(fromJs!.leafInput);
          // The sequencer's leaf is the hash of the record as JavaScript serializes it.
          expect(hash("sha256", fromJs!.leafInput, "hex")).toBe(entry.leaf_hash?.toString("hex"));
        },
      ),
      { numRuns: 300 },
    );
  });
});

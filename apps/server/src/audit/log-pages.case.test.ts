import { hash } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAuditEvents, recordAuditEvent } from "../services/audit.js";
import type { Store } from "../store/store.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { logReaderFor, storeLogReader } from "./log-pages.js";
import { sequenceAuditLog } from "./sequencer.js";
import { latinToHex } from "./verify-tree.js";

// SQLite stores each record's canonical JSON (built by JavaScript on the hot path, by json_object for other writers)
// and reads the fields back from it; PostgreSQL builds it for the verifier (to_json and concatenation, and hashes it
// too); the log's leaves were hashed from JavaScript's. They must agree byte for byte on
// every string a field can hold, or a verify would report untouched events as altered.

/** Any Unicode text, control characters, quotes and backslashes included (no lone surrogates: not UTF-8). */
const text = (nul: boolean) =>
  fc
    .array(
      fc.oneof(
        fc.integer({ min: nul ? 0 : 1, max: 0x7f }),
        fc.integer({ min: 0x80, max: 0xd7ff }),
        fc.integer({ min: 0xe000, max: 0x10ffff }),
      ),
      { maxLength: 24 },
    )
    .map((cps) => String.fromCodePoint(...cps));

forEachEngine((engine, open) => {
  describe(`the verifier's page reader on ${engine}`, () => {
    let opened: OpenedStore;
    let store: Store;
    beforeAll(async () => {
      opened = await open();
      store = opened.store;
      await store.migrate();
    });
    afterAll(async () => {
      await store.close();
      await opened.cleanup();
    });

    it("rebuilds every record exactly as JavaScript hashed it", async () => {
      let next = 0;
      // PostgreSQL text cannot hold U+0000, so no record there can.
      const t = text(engine === "sqlite");
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            request_id: t,
            account: fc.option(t),
            key: fc.option(t),
            operator: fc.option(t),
            action: t,
            resource: fc.option(t),
            code: fc.option(t),
            status: fc.integer({ min: 100, max: 599 }),
          }),
          async (f) => {
            const event = {
              at: new Date(1_790_000_000_000 + next).toISOString(),
              request_id: f.request_id,
              actor_account_id: f.account,
              actor_key_id: f.key,
              actor_operator: f.operator,
              action: f.action,
              resource: f.resource,
              outcome: "success" as const,
              status: f.status,
              code: f.code,
            };
            // Both writers: an operator's (the fields, through audit_event_input) and the hot path's (on SQLite the
            // record's text built in JavaScript; the fields read back from it must rebuild it).
            if (next % 2 === 0)
              await store.db.transaction().execute((trx) => recordAuditEvent(trx, { ...event, transport: "cli" }));
            else
              await store.writes.run((trx) =>
                appendAuditEvents(store.hot, trx, [
                  { ...event, transport: "mcp", client_ip: "127.0.0.1", duration_ms: 1 },
                ]),
              );
            await sequenceAuditLog(store);
            const entry = await store.db
              .selectFrom("audit_entries")
              .selectAll()
              .orderBy("id", "desc")
              .limit(1)
              .executeTakeFirstOrThrow();
            expect(Number(entry.leaf_index)).toBe(next);
            const id = Number(entry.id);
            const reference = await storeLogReader(store).read(id, 1, next);
            const fast = logReaderFor(store);
            const page = await fast.read(id, 1, next);
            fast.close();
            next++;
            expect(page.held).toBe(1);
            expect(page.badMark ?? null).toBeNull();
            if (engine === "sqlite") expect(page.leafInputs).toEqual(reference.leafInputs);
            // The sequencer's leaf is the hash of the record as JavaScript serializes it.
            const leaf = entry.leaf_hash?.toString("hex");
            expect(hash("sha256", reference.leafInputs![0]!, "hex")).toBe(leaf);
            expect(latinToHex(page.leafHash(0))).toBe(leaf);
          },
        ),
        { numRuns: engine === "sqlite" ? 300 : 150 },
      );
    });
  });
});

import { afterAll, describe, expect, it } from "vitest";
import { auditEvent } from "../test-support/audit-events.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { appendAuditEvents } from "./audit.js";

forEachEngine((engine, open) => {
  describe(`appending audit events on ${engine}`, () => {
    const opened: OpenedStore[] = [];
    afterAll(async () => {
      for (const o of opened) {
        await o.store.close();
        await o.cleanup();
      }
    });

    it("keys each event's context row by that event's id, across statements and group commits", async () => {
      const o = await open();
      opened.push(o);
      const { store } = o;
      await store.migrate();
      // 150 events in one group commit (three insert statements of at most 64 rows), then 7 more in another.
      const ipOf = (n: number) => `10.0.${Math.floor(n / 250)}.${n % 250}`;
      const events = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => ({
          ...auditEvent(from + i),
          client_ip: ipOf(from + i),
          duration_ms: from + i,
        }));
      await store.writes.run((trx) => appendAuditEvents(store.hot, trx, events(0, 150)));
      await store.writes.run((trx) => appendAuditEvents(store.hot, trx, events(150, 7)));
      const rows = await store.db
        .selectFrom("audit_trail")
        .select(["request_id", "client_ip", "duration_ms"])
        .orderBy("id")
        .execute();
      expect(rows).toHaveLength(157);
      for (const [n, r] of rows.entries())
        expect(r).toEqual({ request_id: `req-${n}`, client_ip: ipOf(n), duration_ms: n });
    });
  });
});

import { afterAll, describe, expect, it } from "vitest";
import { auditEvent } from "../test-support/audit-events.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { appendAuditEvents } from "./audit.js";
import { averageDurationSince } from "./reputation.js";

forEachEngine((engine, open) => {
  describe(`the reputation's average response time on ${engine}`, () => {
    const opened: OpenedStore[] = [];
    afterAll(async () => {
      for (const o of opened) {
        await o.store.close();
        await o.cleanup();
      }
    });

    it("averages exactly the requests from the window's start, whatever ids lack a context row", async () => {
      const o = await open();
      opened.push(o);
      const { store } = o;
      await store.migrate();
      // 400 requests a minute apart, durations all different, in group commits of 1 to 9; a few context rows pruned
      // (retention) or never written (events of operator commands have none), so ids have gaps.
      const start = Date.parse("2026-11-20T00:00:00.000Z");
      const atOf = (n: number) => new Date(start + n * 60_000).toISOString();
      const durationOf = (n: number) => (n * 7919) % 1000;
      for (let n = 0, size = 1; n < 400; n += size, size = (size % 9) + 1) {
        const events = Array.from({ length: Math.min(size, 400 - n) }, (_, i) => ({
          ...auditEvent(n + i),
          at: atOf(n + i),
          duration_ms: durationOf(n + i),
        }));
        await store.writes.run((trx) => appendAuditEvents(store.hot, trx, events));
      }
      const pruned = [0, 1, 2, 57, 58, 200, 399];
      const ids = await store.db.selectFrom("audit_context").select(["event_id", "at"]).orderBy("event_id").execute();
      await store.db
        .deleteFrom("audit_context")
        .where(
          "event_id",
          "in",
          pruned.map((n) => ids[n]!.event_id),
        )
        .execute();
      const kept = Array.from({ length: 400 }, (_, n) => n).filter((n) => !pruned.includes(n));
      const expected = (since: string) => {
        const within = kept.filter((n) => atOf(n) >= since);
        return within.length === 0 ? 0 : within.reduce((sum, n) => sum + durationOf(n), 0) / within.length;
      };
      for (const since of [
        "2026-11-19T00:00:00.000Z", // before every request
        atOf(0),
        atOf(3), // the first kept one
        atOf(57), // a pruned one: the window starts at the next
        atOf(123), // exactly a request's time: it is in
        new Date(start + 123 * 60_000 + 1).toISOString(), // a millisecond after: it is out
        atOf(398),
        atOf(399), // only a pruned one is left
        "2026-12-01T00:00:00.000Z", // after every request
      ])
        expect(await averageDurationSince(store, since), since).toBeCloseTo(expected(since), 9);
    });
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { windowCounters } from "../http/rate-limit.js";
import type { AuditEvent } from "../services/audit.js";
import type { SettlementWrite } from "./settle-writes.js";
import { decodeReply, decodeRequest, encodeReply, encodeRequest, type WorkerReply } from "./settlement-wire.js";

// Any text a caller can put in a field (quotes, backslashes, control characters, astral code points).
const text = fc.string({ unit: "binary" });
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });

const event: fc.Arbitrary<AuditEvent> = fc.record(
  {
    at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    request_id: text,
    actor_key_id: nullable(text),
    actor_account_id: nullable(text),
    action: text,
    transport: fc.constantFrom("rest", "jsonrpc", "mcp", "a2a", "portal"),
    resource: nullable(text),
    outcome: fc.constantFrom("success", "denied", "failure" as const),
    status: fc.integer({ min: 100, max: 599 }),
    code: nullable(text),
    client_ip: text,
    duration_ms: fc.double({ min: 0, max: 1e6, noNaN: true }),
    actor_operator: text,
  },
  // A portal call carries its user; an API call has none (the property is then absent).
  {
    requiredKeys: [
      "at",
      "request_id",
      "actor_key_id",
      "actor_account_id",
      "action",
      "transport",
      "resource",
      "outcome",
      "status",
      "code",
      "client_ip",
      "duration_ms",
    ],
  },
);

/** A settlement as settle.ts builds it: its counters are those of its policy at its time. */
const write: fc.Arbitrary<SettlementWrite> = fc
  .record({
    rate: nullable(
      fc.record({
        bucket: text,
        windows: fc.array(
          fc.record({ limit: fc.integer({ min: 1, max: 1e6 }), windowMs: fc.constantFrom(60_000, 3_600_000) }),
          { minLength: 1, maxLength: 3 },
        ),
      }),
    ),
    nowMs: fc.integer({ min: 0, max: 4_000_000_000_000 }),
    charge: nullable(
      fc.record({
        accountId: text,
        amount: fc.integer({ min: 0, max: 1e9 }),
        operation: text,
        reference: nullable(text),
        at: text,
      }),
    ),
    status: fc.integer({ min: 100, max: 599 }),
    code: nullable(text),
    audit: nullable(fc.record({ event, answered: fc.boolean(), limited: fc.boolean(), short: fc.boolean() })),
  })
  .map((w) => ({ ...w, counters: w.rate ? windowCounters(w.rate, w.nowMs) : null }));

describe("the settlement writer thread's messages", () => {
  it("a group of settlements arrives as it was sent", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.array(write, { maxLength: 20 }), (id, askedAt, writes) => {
        const sent = { id, askedAt, writes };
        expect(decodeRequest(encodeRequest(sent))).toEqual(sent);
      }),
      { numRuns: 300 },
    );
  });

  it("the results arrive as the writer gave them: counts, charged or not with the balance, no charge, errors", () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.array(
          fc.oneof(
            fc.record({
              written: fc.record({
                counts: nullable(fc.array(fc.nat(), { minLength: 1, maxLength: 3 })),
                charge: nullable(fc.record({ charged: fc.boolean(), balance: fc.integer() })),
              }),
            }),
            fc.record({ error: fc.record({ message: text, code: nullable(text) }) }),
          ),
          { maxLength: 20 },
        ),
        (id, results) => {
          const reply = { id, results } as WorkerReply;
          expect(decodeReply(encodeReply(reply))).toEqual(reply);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is smaller than the objects as JSON (what it is for)", () => {
    const one = fc.sample(write, { numRuns: 50, seed: 7 });
    expect(encodeRequest({ id: 1, askedAt: 1, writes: one }).length).toBeLessThan(
      JSON.stringify({ id: 1, askedAt: 1, writes: one }).length,
    );
  });
});

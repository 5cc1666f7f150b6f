import { merkleRoot, RFC9162, toHex } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLeafHash, auditRecordOf } from "../services/audit.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe("the serving process's audit sequencer", () => {
  it("gives every audited call its leaf index within seconds, and keeps the head equal to the tree of the leaves", async () => {
    const { apiKey, accountId } = await accountWithKey(t.server.deps, { credits: 1000, tier: "bulk" });
    await gradedPractice(t.server.deps, accountId, "1234567893");
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => t.request("/v1/a2a/grade/1234567893", { headers: { "x-api-key": apiKey } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));

    const db = t.server.deps.store.db;
    const deadline = Date.now() + 5000;
    let waiting = Number.POSITIVE_INFINITY;
    while (Date.now() < deadline) {
      const row = await db
        .selectFrom("audit_entries")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("leaf_index", "is", null)
        .executeTakeFirstOrThrow();
      waiting = Number(row.n);
      if (waiting === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(waiting).toBe(0);
    const leaves = await db.selectFrom("audit_entries").selectAll().orderBy("leaf_index").execute();
    expect(leaves.length).toBeGreaterThanOrEqual(12);
    // Each leaf is its record's RFC 9162 leaf hash (the sequencer hashed it, on its planner thread here).
    for (const l of leaves)
      expect(l.leaf_hash?.toString("hex")).toBe(
        auditLeafHash(auditRecordOf({ ...l, status: Number(l.status) }, l.salt)),
      );
    expect(leaves.map((l) => Number(l.leaf_index))).toEqual([...Array(leaves.length).keys()]);
    const state = await db.selectFrom("audit_log").selectAll().executeTakeFirstOrThrow();
    expect(Number(state.size)).toBe(leaves.length);
    expect(state.root_hash).toBe(
      toHex(
        merkleRoot(
          RFC9162,
          leaves.map((l) => l.leaf_hash!),
        ),
      ),
    );
  });
});

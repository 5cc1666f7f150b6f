import { fromHex, openNote, parseCheckpoint, parseVerifierKey, RFC9162, verifyConsistency } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";
import { nodeEd25519Verify } from "./log-key.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { HCS_CHECKPOINT_INTERVAL_S: "1" } });
});
afterAll(async () => {
  await t.close();
});

async function checkpointsAtLeast(n: number) {
  const deadline = Date.now() + 8000;
  for (;;) {
    const rows = await t.server.deps.store.db.selectFrom("audit_checkpoints").selectAll().orderBy("size").execute();
    if (rows.length >= n || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("scheduled audit checkpoints", () => {
  it("publishes the verifier key, and signs checkpoints on schedule that open with it and prove the log only grew", async () => {
    const res = await t.request("/.well-known/hcs-audit-log-key");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    const verifier = parseVerifierKey(res.text.trim());
    expect(verifier?.name).toBe(`${new URL(t.url).host}/audit`);

    const { apiKey, accountId } = await accountWithKey(t.server.deps, { credits: 1000, tier: "bulk" });
    await gradedPractice(t.server.deps, accountId, "1234567893");
    const lookup = () => t.request("/v1/a2a/grade/1234567893", { headers: { "x-api-key": apiKey } });
    for (let i = 0; i < 3; i++) expect((await lookup()).status).toBe(200);
    const [first] = await checkpointsAtLeast(1);
    expect(first).toBeDefined();
    for (let i = 0; i < 4; i++) expect((await lookup()).status).toBe(200);
    const rows = await checkpointsAtLeast(2);
    expect(rows.length).toBeGreaterThanOrEqual(2);

    const heads = rows.map((r) => {
      const opened = openNote(r.note, verifier!, nodeEd25519Verify);
      if (!opened.ok) throw new Error(`checkpoint ${r.size} does not open: ${opened.reason}`);
      return parseCheckpoint(opened.text)!;
    });
    for (let i = 1; i < rows.length; i++) {
      const proof = (JSON.parse(rows[i]!.consistency_proof) as string[]).map((h) => fromHex(h)!);
      expect(Number(rows[i]!.consistency_from)).toBe(heads[i - 1]!.size);
      expect(
        verifyConsistency(
          RFC9162,
          heads[i - 1]!.size,
          heads[i]!.size,
          proof,
          heads[i - 1]!.rootHash,
          heads[i]!.rootHash,
        ),
      ).toBe(true);
    }
  });
});

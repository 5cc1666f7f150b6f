import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey } from "../../test-support/fixtures.js";
import { sharedDataFile } from "../../test-support/shared-data.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";
import { type ScriptedReceiver, startScriptedReceiver } from "../../webhooks/test-support/scripted-receiver.js";

const KEV = sharedDataFile("cisa-kev/known_exploited_vulnerabilities.json", "CISA KEV catalogue");

/** HCS_FEEDS_REFRESH: a serving instance downloads the feeds from the configured URLs (a local HTTPS server here). */
describe.skipIf(!KEV)("scheduled feed refresh", () => {
  const dir = mkdtempSync(join(tmpdir(), "hcs-refresh-"));
  let feeds: ScriptedReceiver;
  let t: TestServer;
  const served: string[] = [];
  beforeAll(async () => {
    const kev = readFileSync(KEV!);
    feeds = await startScriptedReceiver((req, res) => {
      req.resume();
      served.push(req.url ?? "");
      if (req.url === "/kev.json") res.writeHead(200).end(kev);
      else if (req.url === "/eol/nginx.json") res.writeHead(200).end('[{"cycle":"1.28","eol":"2026-04-14"}]');
      else if (req.url === "/hhs.csv") res.writeHead(200).end("this,is,not\nan,hhs,export\n");
      else res.writeHead(404).end();
    });
    const origin = new URL(feeds.url).origin;
    const caFile = join(dir, "ca.pem");
    writeFileSync(caFile, feeds.caPem);
    t = await startTestServer({
      env: {
        HCS_FEEDS_REFRESH: "1d",
        HCS_FEED_KEV_URL: `${origin}/kev.json`,
        HCS_FEED_HHS_URL: `${origin}/hhs.csv`,
        HCS_FEED_EOL_URL: `${origin}/eol/{product}.json`,
        HCS_EXTRA_CA_FILE: caFile,
      },
    });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await feeds.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refreshes at start: KEV imported, a refused breach file logged and nothing else lost", async () => {
    const deadline = Date.now() + 30_000;
    let kev: { version: string } | undefined;
    while (Date.now() < deadline) {
      kev = await t.server.deps.store.db
        .selectFrom("feed_imports")
        .select("version")
        .where("feed", "=", "kev")
        .executeTakeFirst();
      if (kev) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(kev?.version).toBe("2025.08.25");
    expect(served).toEqual(expect.arrayContaining(["/hhs.csv", "/kev.json"]));
    await new Promise((r) => setTimeout(r, 200));
    expect(t.logs.some((l) => l.includes("feed refresh failed") && l.includes("feed_wrong_columns"))).toBe(true);
    const ready = await t.request("/readyz");
    expect(ready.json.details.feeds.map((f: { summary: string }) => f.summary)).toEqual([
      "HHS OCR breach data not imported",
      expect.stringMatching(/^KEV catalogue 2025\.08\.25, \d+ days old$/),
      "end-of-life data not imported",
    ]);
  });

  it("the intelligence endpoints never answer 500 to hostile input", async () => {
    const a = await accountWithKey(t.server.deps, { credits: 100_000, tier: "bulk" });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          name: fc.oneof(fc.string({ maxLength: 300 }), fc.constant("Inc., LLC d/b/a")),
          state: fc.string({ maxLength: 4 }),
        }),
        fc.string({ maxLength: 20 }),
        async (params, npi) => {
          const rpc = await t.request("/api/a2a", {
            method: "POST",
            headers: { "Content-Type": "application/json", "X-API-Key": a.apiKey },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hipaa.breach", params }),
          });
          expect(rpc.status).toBe(200);
          expect(rpc.json.error?.code ?? 0).not.toBe(-32603);
          for (const path of ["breach", "threats", "breach-probability"]) {
            const res = await t.request(
              `/v1/a2a/${path}/${encodeURIComponent(npi)}?size_band=${encodeURIComponent(npi)}`,
              {
                headers: { "X-API-Key": a.apiKey },
              },
            );
            expect(res.status, `${path} ${npi}`).toBeLessThan(500);
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});

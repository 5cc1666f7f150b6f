import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { openMigratedStore } from "../server.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";
import { sharedDataFile } from "../test-support/shared-data.js";
import { type ScriptedReceiver, startScriptedReceiver } from "../webhooks/test-support/scripted-receiver.js";

const CURRENT = sharedDataFile("hhs-ocr-breaches/breach_report_2024-12-09.csv", "HHS OCR breach export (2024)");
const KEV = sharedDataFile("cisa-kev/known_exploited_vulnerabilities.json", "CISA KEV catalogue");

/** The real `hcs-server data …` commands on a data dir, with feeds served by a local HTTPS server. */
describe.skipIf(!CURRENT || !KEV)("hcs-server data import / status", () => {
  const dir = mkdtempSync(join(tmpdir(), "hcs-data-cli-"));
  const dataDir = join(dir, "data");
  let feeds: ScriptedReceiver;
  let env: Record<string, string>;
  const origin = () => new URL(feeds.url).origin;
  beforeAll(async () => {
    const kev = readFileSync(KEV!);
    feeds = await startScriptedReceiver((req, res) => {
      req.resume();
      if (req.url === "/kev.json") res.writeHead(200, { "content-type": "application/json" }).end(kev);
      else if (req.url === "/moved") res.writeHead(302, { location: "/kev.json" }).end();
      else if (req.url === "/huge.json") {
        // 50 MB announced by no header: the download must stop at the feed's limit, not read it all.
        res.writeHead(200, { "content-type": "application/json" });
        const chunk = Buffer.alloc(1 << 20, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 50 && res.write(chunk)) sent++;
          if (sent >= 50) res.end();
          else res.once("drain", pump);
        };
        pump();
        res.on("error", () => undefined);
      } else res.writeHead(404).end();
    });
    const caFile = join(dir, "feeds-ca.pem");
    writeFileSync(caFile, feeds.caPem);
    env = { HCS_EXTRA_CA_FILE: caFile };
    // The operator commands act on a data directory a server (or migrate) set up; they never create one.
    expect((await hcs("migrate")).code).toBe(0);
  });
  afterAll(async () => {
    await feeds.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const hcs = (...args: string[]) => runHcsServer(dataDir, args, env);
  async function audit() {
    const store = await openMigratedStore(loadConfig({ HCS_DATA_DIR: dataDir }, process.cwd()));
    try {
      return await store.db
        .selectFrom("audit_events")
        .select(["action", "resource", "transport", "actor_operator", "actor_account_id"])
        .where("action", "=", "operator.data.import")
        .orderBy("id")
        .execute();
    } finally {
      await store.close();
    }
  }

  it("imports the breach export from a file, with an operator audit event; again changes nothing", async () => {
    const first = await hcs("--json", "data", "import", "hhs-breaches", "--file", CURRENT!);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      feed: "hhs_breaches",
      records: 853,
      changed: true,
      version: "2024-12-03",
    });
    const again = await hcs("data", "import", "hhs-breaches", "--file", CURRENT!);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/imported before: nothing changed/);
    const events = await audit();
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ resource: "feed:hhs_breaches", transport: "cli", actor_account_id: null });
    expect(events[0]!.actor_operator).toBeTruthy();
  });

  it("downloads the KEV catalogue over HTTPS (following a redirect) and status shows its version and age", async () => {
    const r = await hcs("--json", "data", "import", "kev", "--url", `${origin()}/moved`);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      feed: "kev",
      version: "2025.08.25",
      records: 1404,
      source: `${origin()}/kev.json`,
    });
    const status = await hcs("--json", "data", "status");
    const kev = (JSON.parse(status.stdout) as { feed: string; summary: string }[]).find((s) => s.feed === "kev");
    expect(kev?.summary).toMatch(/^KEV catalogue 2025\.08\.25, \d+ days old$/);
  });

  it("refuses a 50 MB download, a missing file, a bad row and wrong options, with clear messages and exit codes", async () => {
    const huge = await hcs("data", "import", "kev", "--url", `${origin()}/huge.json`);
    expect([huge.code, huge.stderr.trim()]).toEqual([
      1,
      `error (feed_too_large): ${origin()}/huge.json is larger than 16 MiB, the most this feed accepts: not a feed file`,
    ]);
    const http = await hcs("data", "import", "kev", "--url", "http://127.0.0.1:9/kev.json");
    expect(http.stderr).toMatch(/feeds are downloaded over https:\/\/ only/);
    const bad = join(dir, "bad.csv");
    writeFileSync(
      bad,
      readFileSync(CURRENT!, "utf8").replace(
        "Pavilion of Bridgeview,IL,Healthcare Provider,1407",
        "Pavilion of Bridgeview,IL,Healthcare Provider,many",
      ),
    );
    const refused = await hcs("data", "import", "hhs-breaches", "--file", bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'error (feed_bad_value): row 6, column "Individuals Affected": "many" is not a whole number',
    );
    expect((await hcs("data", "import", "kev")).code).toBe(2);
    expect((await hcs("data", "import", "kev", "--file", "a", "--url", "https://127.0.0.1/")).code).toBe(2);
    expect((await hcs("data", "import", "kev", "--product", "x", "--file", CURRENT!)).code).toBe(2);
    expect((await hcs("data", "import", "nvd", "--file", CURRENT!)).code).toBe(2);
    const missing = await hcs("data", "import", "kev", "--file", join(dir, "nope.json"));
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringMatching(/cannot open .*nope\.json: ENOENT/)]);
    expect(await audit()).toHaveLength(3);
  }, 120_000);
});

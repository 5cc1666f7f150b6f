import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { openMigratedStore } from "../server.js";
import { HCS_BIN } from "../test-support/hcs-bin.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";
import {
  endpointCsv,
  nppesCsv,
  nppesRowOf,
  registryAnswerFiles,
  registryRecords,
} from "../test-support/nppes-files.js";
import { writeGeneratedNppesFile } from "../test-support/nppes-generator.js";

const FILES = registryAnswerFiles();

/** The real `hcs-server data import nppes|nppes-endpoints` on a data dir: progress, audit, status, a kill and a resume. */
describe.skipIf(!FILES)("hcs-server data import nppes / nppes-endpoints", () => {
  const dir = mkdtempSync(join(tmpdir(), "hcs-nppes-cli-"));
  const dataDir = join(dir, "data");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const hcs = (...args: string[]) => runHcsServer(dataDir, args);
  // The operator commands act on a data directory a server (or migrate) set up; they never create one.
  beforeAll(async () => {
    expect((await hcs("migrate")).code).toBe(0);
  }, 60_000);
  async function importEvents() {
    const store = await openMigratedStore(loadConfig({ HCS_DATA_DIR: dataDir }, process.cwd()));
    try {
      return await store.db
        .selectFrom("audit_events")
        .select(["resource", "transport", "actor_operator"])
        .where("action", "=", "operator.data.import")
        .orderBy("id")
        .execute();
    } finally {
      await store.close();
    }
  }

  it("imports the data file and the endpoint file, audited, with progress on stderr; status shows them", async () => {
    const data = join(dir, "npidata_pfile.csv");
    writeFileSync(data, nppesCsv(registryRecords(FILES!).map(nppesRowOf)));
    const r = await hcs("--json", "data", "import", "nppes", "--file", data);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: "nppes", records: 40, skipped: 0, changed: true });
    expect(r.stderr).toMatch(/^nppes: 100% \(.* MiB\), 40 records, 0 skipped, \d+ records\/s$/m);
    const endpoints = join(dir, "endpoint_pfile.csv");
    writeFileSync(endpoints, endpointCsv([{ npi: "1568946812", type: "DIRECT", endpoint: "a@direct.csp.test" }]));
    const e = await hcs("data", "import", "nppes-endpoints", "--file", endpoints);
    expect(e.code, e.stderr).toBe(0);
    const again = await hcs("data", "import", "nppes", "--file", data);
    expect(again.stderr).toMatch(/imported completely before: nothing changed/);
    const status = JSON.parse((await hcs("--json", "data", "status")).stdout) as { feed: string; summary: string }[];
    expect(status.find((s) => s.feed === "nppes")?.summary).toMatch(/^40 NPIs \(0 deactivated\); last import /);
    expect(status.find((s) => s.feed === "nppes_endpoints")?.summary).toMatch(/^1 endpoints;/);
    const events = await importEvents();
    expect(events.map((x) => x.resource)).toEqual(["directory:nppes", "directory:nppes_endpoints", "directory:nppes"]);
    expect(events.every((x) => x.transport === "cli" && x.actor_operator)).toBe(true);
    expect((await hcs("data", "import", "nppes", "--url", "https://127.0.0.1/x.csv")).code).toBe(2);
    const missing = await hcs("data", "import", "nppes", "--file", join(dir, "nope.csv"));
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringMatching(/cannot open .*nope\.csv: ENOENT/)]);
  }, 120_000);

  it("a killed import resumes where it was killed; the finished file holds every record once", async () => {
    const big = join(dir, "npidata_big.csv");
    await writeGeneratedNppesFile(big, 60_000);
    const child = spawn(process.execPath, [...HCS_BIN.nodeArgs, "data", "import", "nppes", "--file", big], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        HCS_DATA_DIR: dataDir,
        HCS_LOG_LEVEL: "silent",
      },
    });
    let stderr = "";
    await new Promise<void>((resolve, reject) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        // Killed as a crash would stop it: after a batch was committed, long before the end.
        if (/nppes: \d+% .* [1-9]\d* records/.test(stderr) && !child.killed) child.kill("SIGKILL");
      });
      child.once("exit", () => resolve());
      child.once("error", reject);
    });
    expect(stderr).not.toMatch(/nppes: 100%/);
    const r = await hcs("--json", "data", "import", "nppes", "--file", big);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ records: 60_000, skipped: 0, changed: true });
    expect(report.resumed_at_byte).toBeGreaterThan(0);
    const store = await openMigratedStore(loadConfig({ HCS_DATA_DIR: dataDir }, process.cwd()));
    try {
      const n = await store.db
        .selectFrom("nppes_providers")
        .select((x) => x.fn.countAll<number>().as("n"))
        .where("npi", ">=", "1000000000")
        .where("npi", "<", "1000600000")
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(60_000);
    } finally {
      await store.close();
    }
  }, 180_000);
});

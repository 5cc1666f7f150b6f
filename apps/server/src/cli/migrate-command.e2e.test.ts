import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFor } from "../store/migrations/index.js";
import { openStore, storeOptionsFor } from "../store/store.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";

// `hcs-server migrate` says what it did: each migration it applied, or that none was pending. Before, it printed
// "store … is at the latest schema" either way, and an operator upgrading could not tell whether anything changed.

const work = mkdtempSync(join(tmpdir(), "hcs-migrate-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ALL = Object.keys(migrationsFor("sqlite"));
const LATEST = ALL.at(-1)!;

describe("hcs-server migrate", () => {
  it("on a new data directory applies every migration and names each; again, says nothing was pending", async () => {
    const dataDir = join(work, "fresh");
    const first = await runHcsServer(dataDir, ["migrate"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.store).toBe(`store: sqlite:${join(dataDir, "hcs.sqlite")}`);
    expect(first.stdout.split("\n").filter(Boolean)).toEqual([
      `applied ${ALL.length} migrations:`,
      ...ALL.map((name) => `  ${name}`),
      `the schema is at the latest migration, ${LATEST}`,
    ]);
    const again = await runHcsServer(dataDir, ["migrate"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(`nothing to apply: the schema is already at the latest migration, ${LATEST}`);
  });

  it("on a store of an older version applies exactly what it lacks", async () => {
    const dataDir = join(work, "older");
    const older = ALL.at(-3)!;
    const store = openStore(storeOptionsFor({ dataDir, databaseUrl: null }));
    try {
      expect(await store.migrate(older)).toEqual(ALL.slice(0, -2));
    } finally {
      await store.close();
    }
    const r = await runHcsServer(dataDir, ["migrate"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n").filter(Boolean)).toEqual([
      "applied 2 migrations:",
      ...ALL.slice(-2).map((name) => `  ${name}`),
      `the schema is at the latest migration, ${LATEST}`,
    ]);
  });
});

import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { httpRequestTo } from "../lab/https-client.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import { openMigratedStore } from "../server.js";
import { namedBlock, repoDoc } from "../test-support/doc-commands.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { HCS_BIN } from "../test-support/hcs-bin.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";
import { createTestDatabase, shouldRunPostgres } from "../test-support/postgres.js";
import { startServerProcess } from "../test-support/server-process.js";

// docs/operations.md's backup and restore, run as written: its ```sh backup-…, restore-… and verify-restore blocks are
// taken from the page and run by bash (errexit, nounset, pipefail) with the variables the page says to set, against
// a real `hcs-server serve`. Backup while the server runs → restore onto a fresh data directory (and, on PostgreSQL, a
// fresh database) → migrate and audit verify → the restored server answers the same grade, and opens the same webhook
// secret (master.key came back). Every file the backup writes is owner-only.

const run = promisify(execFile);
const OPERATIONS = repoDoc("docs/operations.md");
const NPI = "1234567893";
// The same public URL before and after: the audit log is named after its host (docs/audit.md).
const PUBLIC_URL = "https://hcs-backups.test";

const work = mkdtempSync(join(tmpdir(), "hcs-doc-backups-"));
// `hcs-server` as an installed server has it on PATH: here, test-support/hcs-bin.ts's (the sources, or the build).
const bin = join(work, "bin");
mkdirSync(bin);
writeFileSync(
  join(bin, "hcs-server"),
  `#!/bin/sh\nexec "${process.execPath}" ${HCS_BIN.nodeArgs.map((a) => `"${a}"`).join(" ")} "$@"\n`,
);
chmodSync(join(bin, "hcs-server"), 0o755);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs a block of the page with bash, in `work`, with only PATH, HOME and the variables the page names. */
async function runBlock(name: string, vars: Record<string, string>) {
  const block = namedBlock(OPERATIONS, "sh", name);
  try {
    const r = await run("bash", ["-euo", "pipefail", "-c", block], {
      cwd: work,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME ?? "", ...vars },
      timeout: 120_000,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    throw new Error(`the ${name} block failed (${e.code}):\n${block}\n${e.stdout}\n${e.stderr}`);
  }
}

/** Every file and directory under `dir`, with its mode. */
function modes(dir: string): [string, number][] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .map((f) => [f, statSync(join(dir, f)).mode & 0o777]);
}

interface Engine {
  readonly name: "sqlite" | "postgres";
  /** DATABASE_URL of the server backed up, and of the database restored into (undefined: SQLite). */
  source?: string;
  restored?: string;
}

async function serve(dataDir: string, databaseUrl: string | undefined) {
  const { proc, match } = await startServerProcess(
    ["serve", "--no-worker"],
    {
      HCS_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? "",
      HCS_MASTER_KEY: "",
      HCS_PORT: "0",
      HCS_PUBLIC_URL: PUBLIC_URL,
      HCS_CHECKPOINT_INTERVAL_S: "1",
      HCS_LOG_LEVEL: "warn",
    },
    /listening on (https:\/\/\S+)/,
  );
  const ca = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
  return { proc, url: match[1]!, ca };
}

function backupAndRestore(engine: Engine) {
  const vars = (dataDir: string, databaseUrl?: string): Record<string, string> => ({
    HCS_DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const dir = join(work, engine.name);
  const dataDir = join(dir, "data");
  const restoredDir = join(dir, "restored-data");
  const backup = join(dir, "backups", "2026-11-24-0300");
  let owner: Awaited<ReturnType<typeof accountWithKey>>;
  let grade: unknown;
  let webhookSecret: string;

  beforeAll(async () => {
    mkdirSync(dir);
    // A server's store with an account, its key and a graded practice.
    const config = loadConfig({ HCS_DATA_DIR: dataDir, ...vars(dataDir, engine.source) }, work);
    const store = await openMigratedStore(config);
    try {
      const deps = { store, now: () => new Date(), secrets: createSecretBox(loadMasterKey(dataDir, null)) };
      owner = await accountWithKey(deps, { plan: "professional", credits: 1000 });
      webhookSecret = owner.webhookSecret;
      await gradedPractice(deps, owner.accountId, NPI);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("backs up while the server runs; every file the backup writes is owner-only", async () => {
    const server = await serve(dataDir, engine.source);
    try {
      const res = await httpRequestTo(`${server.url}/v1/a2a/grade/${NPI}`, {
        ca: server.ca,
        headers: { "X-API-Key": owner.apiKey },
      });
      expect(res.status, res.text).toBe(200);
      grade = res.json;
      // The lookup is audited; the server signs a checkpoint over it (one a second here), with the log's key from the
      // database (sealed under master.key).
      const deadline = Date.now() + 30_000;
      for (;;) {
        const v = await runHcsServer(dataDir, ["--json", "audit", "verify"], {
          ...vars(dataDir, engine.source),
          HCS_PUBLIC_URL: PUBLIC_URL,
        });
        if (v.code === 0 && JSON.parse(v.stdout).checkpoints > 0) break;
        if (Date.now() > deadline) throw new Error(`no checkpoint was signed: ${v.stdout}${v.stderr}`);
        await new Promise((r) => setTimeout(r, 500));
      }
      await runBlock(`backup-${engine.name}`, { ...vars(dataDir, engine.source), BACKUP: backup });
    } finally {
      await server.proc.stop();
    }
    const written = modes(backup);
    expect(written.map(([f]) => f).sort()).toEqual(
      engine.name === "sqlite" ? ["data-dir.tar", "hcs.sqlite"] : ["data-dir.tar", "hcs.pgdump"],
    );
    for (const [file, mode] of written) expect([file, mode.toString(8)]).toEqual([file, "600"]);
    expect((statSync(backup).mode & 0o777).toString(8)).toBe("700");
    const { stdout: listing } = await run("tar", ["-tf", join(backup, "data-dir.tar")]);
    expect(listing.split("\n")).toEqual(
      expect.arrayContaining(["./master.key", "./server.json", "./tls/ca.crt", "./tls/ca.key", "./tls/server.key"]),
    );
    expect(listing).not.toMatch(/hcs\.sqlite/);
  }, 180_000);

  it("restores onto a fresh data directory; migrate has nothing to apply and the audit log verifies", async () => {
    await runBlock(`restore-${engine.name}`, { ...vars(restoredDir, engine.restored), BACKUP: backup });
    expect((statSync(restoredDir).mode & 0o777).toString(8)).toBe("700");
    for (const key of ["master.key", "tls/ca.key", "tls/server.key"])
      expect([key, (statSync(join(restoredDir, key)).mode & 0o777).toString(8)]).toEqual([key, "600"]);
    const verified = await runBlock("verify-restore", vars(restoredDir, engine.restored));
    expect(verified.stdout).toMatch(/^nothing to apply: the schema is already at the latest migration, \S+$/m);
    expect(verified.stdout).toMatch(/^verified\s+true$/m);
    expect(verified.stdout).toMatch(/^checkpoints\s+[1-9]\d*$/m);
    // Both commands said which store they opened: the restored one.
    const opened =
      engine.name === "sqlite" ? `sqlite:${join(restoredDir, "hcs.sqlite")}` : new URL(engine.restored!).pathname;
    expect(verified.stderr.split("\n").filter((l) => l.startsWith("store: "))).toEqual([
      expect.stringContaining(opened),
      expect.stringContaining(opened),
    ]);
  }, 120_000);

  it("the restored server answers the same grade and opens the same webhook secret", async () => {
    const server = await serve(restoredDir, engine.restored);
    try {
      const res = await httpRequestTo(`${server.url}/v1/a2a/grade/${NPI}`, {
        ca: server.ca,
        headers: { "X-API-Key": owner.apiKey },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual(grade);
      const secret = await runHcsServer(restoredDir, ["--json", "accounts", "webhook-secret", owner.accountId], {
        ...vars(restoredDir, engine.restored),
      });
      expect(secret.code, secret.stderr).toBe(0);
      expect(JSON.parse(secret.stdout).webhook_secret).toBe(webhookSecret);
    } finally {
      await server.proc.stop();
    }
  }, 120_000);
}

describe("docs/operations.md backup and restore, as written: SQLite", () => {
  backupAndRestore({ name: "sqlite" });
});

const runPostgres = await shouldRunPostgres();

describe.skipIf(!runPostgres)("docs/operations.md backup and restore, as written: PostgreSQL", () => {
  // The servers' database, and the empty one the backup is restored into: both the test's own, dropped after.
  const engine: Engine = { name: "postgres" };
  const dropped: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    const source = await createTestDatabase();
    dropped.push(source.drop);
    const restored = await createTestDatabase();
    dropped.push(restored.drop);
    engine.source = source.url;
    engine.restored = restored.url;
  });
  afterAll(async () => {
    for (const drop of dropped) await drop();
  });
  backupAndRestore(engine);
});

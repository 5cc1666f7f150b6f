import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequestTo } from "../lab/https-client.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";
import { createTestSchema, shouldRunPostgres, urlWithSchema } from "../test-support/postgres.js";
import { type ServerProcess, startServerProcess } from "../test-support/server-process.js";

// The operator CLI and the server read one configuration: `serve` records, in its data directory, the store it uses
// and the URL it is reached at (server.json, owner-only), and every other command on that directory takes them when
// its own environment does not set them. Before, `users invite` for a server on another port printed an 8443 link,
// the first start's next steps pasted without DATABASE_URL opened a new SQLite store, and a relative HCS_DATA_DIR
// from another directory created a new empty store there. Every command now says which store it opened.

const work = mkdtempSync(join(tmpdir(), "hcs-server-record-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Variables of this process's environment that must not reach the servers these tests start (startServerProcess
 * passes its environment down). */
const CLEAN = { DATABASE_URL: "", HCS_MASTER_KEY: "", HCS_PUBLIC_URL: "", HCS_PORT: "0", HCS_LOG_LEVEL: "info" };

async function serve(env: Record<string, string>) {
  const { proc, match } = await startServerProcess(
    ["serve", "--no-worker"],
    { ...CLEAN, ...env },
    /listening on (https:\/\/\S+)[\s\S]*More: docs\/operations\.md/,
  );
  return { proc, url: match[1]!, banner: proc.output().stderr };
}

/** The banner's next step that runs `npx hcs-server <verb>`: its HCS_DATA_DIR (if any) and its words, as a shell
 * splits them. */
function nextStep(banner: string, verb: string): { env: Record<string, string>; args: string[] } {
  const line = banner.split("\n").find((l) => l.includes(`npx hcs-server ${verb}`));
  if (!line) throw new Error(`the banner has no next step running hcs-server ${verb}:\n${banner}`);
  const words = execFileSync("bash", ["-c", `printf '%s\\0' ${line.trim()}`], { encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  const env: Record<string, string> = {};
  while (words[0]?.includes("=")) {
    const [name, ...value] = words.shift()!.split("=");
    env[name!] = value.join("=");
  }
  expect(words.slice(0, 2)).toEqual(["npx", "hcs-server"]);
  return { env, args: words.slice(2) };
}

describe("one configuration for the server and the operator CLI (SQLite)", () => {
  const dataDir = join(work, "sqlite-data");
  let server: { proc: ServerProcess; url: string; banner: string };
  beforeAll(async () => {
    server = await serve({ HCS_DATA_DIR: dataDir });
  }, 60_000);
  afterAll(() => server?.proc.stop());

  it("serve records its URL and store in the data directory, owner-only", () => {
    const file = join(dataDir, "server.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      public_url: server.url,
      database_url: null,
      master_key: "data_dir",
    });
    expect(server.banner).toContain(`Data directory: ${dataDir} (operator commands on it read this server's settings`);
  });

  it("users invite, run without the server's HCS_PORT, prints a link to the running server, which answers it", async () => {
    const accountId = /operator account (acct_\S+)/.exec(server.banner)![1]!;
    const { env, args } = nextStep(server.banner, "users invite");
    // The data directory is not the default of the test's working directory: the step names it.
    expect(env).toEqual({ HCS_DATA_DIR: dataDir });
    const invited = await runHcsServer(env.HCS_DATA_DIR!, ["--json", ...args]);
    expect(invited.code, invited.stderr).toBe(0);
    expect(invited.store).toBe(`store: sqlite:${join(dataDir, "hcs.sqlite")}`);
    const link = JSON.parse(invited.stdout).link as string;
    expect(link.startsWith(`${server.url}/portal/invite?token=`)).toBe(true);
    expect(server.url).not.toMatch(/:8443$/);
    const ca = readFileSync(join(dataDir, "tls", "ca.crt"), "utf8");
    const page = await httpRequestTo(link, { ca });
    expect(page.status).toBe(200);
    expect(page.text).toContain("you@sunrise-clinic.example");
    expect(args).toContain(accountId);
  });

  it("an explicit HCS_PUBLIC_URL in the command's environment wins over the record", async () => {
    const accountId = /operator account (acct_\S+)/.exec(server.banner)![1]!;
    const r = await runHcsServer(
      dataDir,
      ["--json", "users", "invite", "--account", accountId, "--email", "other@sunrise-clinic.example"],
      { HCS_PUBLIC_URL: "https://hcs.sunrise-clinic.example" },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).link).toMatch(/^https:\/\/hcs\.sunrise-clinic\.example\/portal\/invite\?token=/);
  });

  it("a relative HCS_DATA_DIR from another directory is refused, naming where it led; nothing is created", async () => {
    const elsewhere = join(work, "elsewhere");
    mkdirSync(elsewhere);
    const given = relative(work, dataDir);
    const r = await runHcsServer(given, ["practices", "list"], {}, { cwd: elsewhere });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `configuration error: HCS_DATA_DIR: no data directory at ${join(elsewhere, given)} (HCS_DATA_DIR=${given} from ${elsewhere}): run the command where the server runs, or set HCS_DATA_DIR to the absolute path the server prints at start; only serve, worker and migrate create a data directory`,
    );
    expect(existsSync(join(elsewhere, given))).toBe(false);
    // From the directory it is relative to, the same value finds the server's store.
    const right = await runHcsServer(given, ["practices", "list"], {}, { cwd: work });
    expect([right.code, right.store]).toEqual([0, `store: sqlite:${join(dataDir, "hcs.sqlite")}`]);
    // The default (./.hcs-data) is refused the same way where there is none.
    const unset = await runHcsServer("", ["accounts", "list"], {}, { cwd: elsewhere });
    expect([unset.code, unset.stderr]).toEqual([
      2,
      expect.stringContaining(`no data directory at ${join(elsewhere, ".hcs-data")} (HCS_DATA_DIR unset: ./.hcs-data`),
    ]);
  });

  it("a server.json others may read is refused, as a key file would be", async () => {
    const copy = join(work, "exposed");
    mkdirSync(copy, { mode: 0o700 });
    execFileSync("install", ["-m", "0644", join(dataDir, "server.json"), join(copy, "server.json")]);
    const r = await runHcsServer(copy, ["accounts", "list"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/server\.json is readable by group or others \(mode 0644\)/);
  });
});

const runPostgres = await shouldRunPostgres();

describe.skipIf(!runPostgres)("one configuration for the server and the operator CLI (PostgreSQL)", () => {
  const dataDir = join(work, "pg-data");
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let server: { proc: ServerProcess; url: string; banner: string };
  const masterKey = randomBytes(32).toString("hex");
  beforeAll(async () => {
    schema = await createTestSchema();
    server = await serve({
      HCS_DATA_DIR: dataDir,
      DATABASE_URL: urlWithSchema(schema),
      HCS_MASTER_KEY: masterKey,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.proc.stop();
    await schema?.drop();
  });

  it("the first start's next step, pasted without DATABASE_URL, adds the practice to the server's PostgreSQL store", async () => {
    expect(server.banner).toMatch(/listening on \S+ \(store: postgres:/);
    const { env, args } = nextStep(server.banner, "practices add");
    const added = await runHcsServer(env.HCS_DATA_DIR!, args, { HCS_MASTER_KEY: masterKey });
    expect(added.code, added.stderr).toBe(0);
    expect(added.store).toMatch(
      new RegExp(`^store: postgres:127\\.0\\.0\\.1:5432/\\S+ \\(DATABASE_URL from ${join(dataDir, "server.json")}\\)$`),
    );
    expect(existsSync(join(dataDir, "hcs.sqlite"))).toBe(false);
    const client = new pg.Client({ connectionString: urlWithSchema(schema) });
    await client.connect();
    try {
      const rows = await client.query(`select npi, name from ${schema.schema}.practices`);
      expect(rows.rows).toEqual([{ npi: "1234567893", name: "Sunrise Family Practice" }]);
    } finally {
      await client.end();
    }
  });

  it("a server that takes its master key from HCS_MASTER_KEY: a command without it is refused, not given a new key", async () => {
    const r = await runHcsServer(dataDir, ["accounts", "list"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^configuration error: HCS_MASTER_KEY: the server on .* takes its master key from/);
    expect(r.stderr).not.toContain(masterKey);
    expect(existsSync(join(dataDir, "master.key"))).toBe(false);
    const ok = await runHcsServer(dataDir, ["--json", "accounts", "list"], { HCS_MASTER_KEY: masterKey });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toHaveLength(1);
  });
});

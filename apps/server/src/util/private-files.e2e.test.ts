import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { startServer } from "../server.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";
import { startTestServer } from "../test-support/test-server.js";
import { ensureSelfManagedTls } from "../tls/tls-material.js";

const modeOf = (file: string) => statSync(file).mode & 0o777;
const dirs: string[] = [];
const freshDir = (mode: number) => {
  const dir = mkdtempSync(join(tmpdir(), "hcs-modes-"));
  chmodSync(dir, mode);
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(process.platform === "win32")("file modes of the data directory", () => {
  it("creates the database, its WAL and shared-memory files, and every key owner-only in a 0755 data dir", async () => {
    const dataDir = freshDir(0o755);
    const t = await startTestServer({ env: { HCS_DATA_DIR: dataDir } });
    try {
      // A write makes SQLite create the WAL and shared-memory files.
      expect(
        (await t.request("/v1/a2a/keys", { method: "POST", body: { email: "a@b.example", organization: "A" } })).status,
      ).toBe(201);
      for (const file of [
        "hcs.sqlite",
        "hcs.sqlite-wal",
        "hcs.sqlite-shm",
        "master.key",
        "tls/ca.key",
        "tls/server.key",
      ])
        expect(modeOf(join(dataDir, file)).toString(8), file).toBe("600");
    } finally {
      await t.close();
    }
  });

  it("tightens a database file left readable by others, with a warning", async () => {
    const dataDir = freshDir(0o755);
    const first = await startTestServer({ env: { HCS_DATA_DIR: dataDir } });
    await first.server.close();
    chmodSync(join(dataDir, "hcs.sqlite"), 0o644);
    const again = await startTestServer({ env: { HCS_DATA_DIR: dataDir } });
    try {
      expect(modeOf(join(dataDir, "hcs.sqlite")).toString(8)).toBe("600");
      expect(again.logs.join("\n")).toMatch(/hcs\.sqlite was readable by others \(mode 644\); changed to owner-only/);
    } finally {
      await again.close();
    }
  });

  it.each([
    ["the self-managed server key", "tls/server.key"],
    ["the self-managed CA key", "tls/ca.key"],
    ["the master key", "master.key"],
  ])("refuses to start with %s readable by others, naming the file and the fix", async (_what, file) => {
    const dataDir = freshDir(0o700);
    const first = await startTestServer({ env: { HCS_DATA_DIR: dataDir } });
    await first.server.close();
    chmodSync(join(dataDir, file), 0o644);
    const config = loadConfig({ HCS_DATA_DIR: dataDir, HCS_PORT: "0", HCS_LOG_LEVEL: "silent" }, process.cwd());
    await expect(startServer(config, createLogger("silent"), { worker: false })).rejects.toThrow(
      `${join(dataDir, file)} is readable by group or others (mode 0644); private key material must be owner-only: run chmod 600 ${join(dataDir, file)}`,
    );
  });

  it.each([
    { mode: 0o777, shown: "0777" },
    { mode: 0o1777, shown: "1777" },
    { mode: 0o702, shown: "0702" },
  ])(
    "refuses a data directory writable by others (mode $shown): configuration error, exit 2, nothing created",
    async ({ mode, shown }) => {
      const dataDir = freshDir(mode);
      const run = await runHcsServer(dataDir, ["migrate"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `configuration error: the data directory ${dataDir} is writable by others (mode ${shown}): ` +
          "anyone on this machine could replace the database, the master key or the TLS keys in it; " +
          `run chmod 700 ${dataDir}\n`,
      );
      expect(readdirSync(dataDir)).toEqual([]);
      // The server refuses it the same way.
      const config = loadConfig({ HCS_DATA_DIR: dataDir, HCS_PORT: "0" }, process.cwd());
      await expect(startServer(config, createLogger("silent"), { worker: false })).rejects.toMatchObject({
        code: "writable_data_dir",
      });
    },
  );

  it("starts with a group-writable data directory, warning in the log", async () => {
    const dataDir = freshDir(0o770);
    const t = await startTestServer({ env: { HCS_DATA_DIR: dataDir } });
    try {
      expect(t.logs.join("\n")).toContain(`the data directory ${dataDir} is writable by its group (mode 0770)`);
    } finally {
      await t.close();
    }
  });

  it("refuses an operator-provided HCS_TLS_KEY readable by others", async () => {
    const dataDir = freshDir(0o700);
    const material = freshDir(0o755);
    ensureSelfManagedTls(material, ["localhost"]);
    mkdirSync(join(dataDir, "certs"));
    cpSync(join(material, "tls", "server.crt"), join(dataDir, "certs", "chain.pem"));
    writeFileSync(join(dataDir, "certs", "key.pem"), "", { mode: 0o644 });
    cpSync(join(material, "tls", "server.key"), join(dataDir, "certs", "key.pem"));
    chmodSync(join(dataDir, "certs", "key.pem"), 0o644);
    const config = loadConfig(
      {
        HCS_DATA_DIR: dataDir,
        HCS_PORT: "0",
        HCS_TLS_CERT: join(dataDir, "certs", "chain.pem"),
        HCS_TLS_KEY: join(dataDir, "certs", "key.pem"),
      },
      process.cwd(),
    );
    await expect(startServer(config, createLogger("silent"), { worker: false })).rejects.toMatchObject({
      code: "exposed_key_file",
    });
  });
});

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { openMigratedStore } from "../server.js";
import { createAccount } from "../services/accounts.js";
import { HCS_BIN } from "../test-support/hcs-bin.js";

/*
 * `hcs-server … | head`: the reader takes what it wants and closes the pipe. The command must end quietly and
 * successfully, as a Unix tool ended by SIGPIPE does — not with an EPIPE stack trace (Node ignores SIGPIPE and
 * reports the broken pipe as an error event on stdout instead). A real process, its stdout a real pipe whose
 * reading end this test closes after the first chunk.
 */

const dataDir = mkdtempSync(join(tmpdir(), "hcs-cli-pipe-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const PRACTICES = 3_000; // ~250 KB of listing: several times a pipe's buffer, so the writer meets the closed end

beforeAll(async () => {
  const store = await openMigratedStore(loadConfig({ HCS_DATA_DIR: dataDir }, process.cwd()));
  try {
    const deps = { store, now: () => new Date(), secrets: { seal: () => "", open: () => "" } } as never;
    const { account } = await createAccount(deps, {
      name: "Many Practices",
      plan: "free",
      tier: "standard",
      credits: 0,
    });
    const now = new Date().toISOString();
    await store.db
      .insertInto("practices")
      .values(
        Array.from({ length: PRACTICES }, (_, i) => ({
          npi: String(1_000_000_000 + i),
          account_id: account.id,
          name: `Practice number ${i} of a long list`,
          domain: `practice-${i}.example`,
          website: null,
          created_at: now,
          state: null,
        })),
      )
      .execute();
  } finally {
    await store.close();
  }
}, 60_000);

/** Runs `hcs-server <args>`, reads the first chunk of its stdout, then closes the pipe's reading end. */
function runThenCloseReader(args: string[]): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...HCS_BIN.nodeArgs, ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        HCS_DATA_DIR: dataDir,
        HCS_LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout.once("data", () => child.stdout.destroy());
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`hcs-server ${args.join(" ")} did not end: ${stderr}`));
    }, 30_000);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe("hcs-server piped into a reader that closes early (| head)", () => {
  it.each([[["practices", "list"]], [["--json", "practices", "list"]]])(
    "%j ends quietly with exit code 0",
    async (args) => {
      const run = await runThenCloseReader(args);
      // Only the line saying which store it opened: nothing about the pipe.
      expect(run.stderr).toBe(`store: sqlite:${join(dataDir, "hcs.sqlite")}\n`);
      expect(run.signal).toBeNull();
      expect(run.code).toBe(0);
    },
    40_000,
  );
});

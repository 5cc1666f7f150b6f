import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { GradeRecordSchema } from "@hcs/protocol";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import { openMigratedStore } from "../server.js";
import { gradeJsonForNpi } from "../services/grades.js";
import { namedBlock, REPO_ROOT, repoDoc } from "../test-support/doc-commands.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { withRepoBuildLock } from "../test-support/repo-build-lock.js";

// The AI-agent developer's journey: docs/api.md's "Starting it from an agent host", followed as written. The build
// command and the client's server entry are taken from the page; only the example paths (/opt/hcs) are replaced by
// this clone's and a fresh data directory's. The entry is started as an MCP client starts it — the SDK's stdio client
// transport, with the entry's command, args and env, no shell, a working directory outside the clone — and its
// hipaa_grade tool answers with the practice's grade. Before, the page's entry ran `npx hcs-server mcp`, which works
// only inside the clone.

const run = promisify(execFile);
const API = repoDoc("docs/api.md");
const NPI = "1234567893";

const work = mkdtempSync(join(tmpdir(), "hcs-mcp-host-"));
const dataDir = join(work, "hcs-data");
const keyFile = join(work, "mcp-agent.key");
let expected: unknown;

/** The page's example paths, as this machine has them. */
const ours = (text: string) =>
  text
    .replaceAll("/opt/hcs/.hcs-data", dataDir)
    .replaceAll("/opt/hcs/mcp-agent.key", keyFile)
    .replaceAll("/opt/hcs", REPO_ROOT);

beforeAll(async () => {
  // The operator's server store, with an account whose key the agent uses and a graded practice.
  const store = await openMigratedStore(loadConfig({ HCS_DATA_DIR: dataDir }, work));
  try {
    const deps = { store, now: () => new Date(), secrets: createSecretBox(loadMasterKey(dataDir, null)) };
    const owner = await accountWithKey(deps, { credits: 500 });
    await gradedPractice(deps, owner.accountId, NPI);
    expected = JSON.parse(await gradeJsonForNpi(deps, NPI));
    writeFileSync(keyFile, owner.apiKey, { mode: 0o600 });
  } finally {
    await store.close();
  }
  const build = ours(namedBlock(API, "sh", "mcp-stdio-build")).trim();
  await withRepoBuildLock(() =>
    run("bash", ["-euo", "pipefail", "-c", build], { cwd: work, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 }),
  );
}, 900_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("docs/api.md: an agent host starts hcs-server mcp as written", () => {
  it("the server entry, started by the SDK's stdio client from outside the clone, serves hipaa_grade", async () => {
    const config = JSON.parse(ours(namedBlock(API, "json", "mcp-stdio-config"))) as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    const entry = config.mcpServers.hcs!;
    expect(entry.command).toBe("node");
    const elsewhere = join(work, "agent-host");
    mkdirSync(elsewhere);
    const transport = new StdioClientTransport({ ...entry, cwd: elsewhere, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const client = new Client({ name: "agent-host", version: "1.0.0" });
    try {
      await client.connect(transport);
      const result = await client.callTool({ name: "hipaa_grade", arguments: { npi: NPI } });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      GradeRecordSchema.parse(result.structuredContent);
      expect(result.structuredContent).toEqual(expected);
      // It said which store it opened: the operator's.
      expect(stderr).toContain(`store: sqlite:${join(dataDir, "hcs.sqlite")}`);
    } finally {
      await client.close();
    }
  }, 60_000);
});

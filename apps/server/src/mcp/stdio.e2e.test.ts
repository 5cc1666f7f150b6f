import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GradeRecordSchema } from "@hcs/protocol";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentSkills } from "../a2a/agent-card.js";
import { CATALOGUE } from "../catalogue/index.js";
import { loadConfig } from "../config.js";
import { mcpToolName } from "../operations/operation.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import { openMigratedStore } from "../server.js";
import { getAccount } from "../services/accounts.js";
import { revokeApiKey } from "../services/api-keys.js";
import type { ServiceDeps } from "../services/deps.js";
import { gradeJsonForNpi } from "../services/grades.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { HCS_BIN } from "../test-support/hcs-bin.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";

const NPI = "1234567893";
let dataDir: string;
let deps: ServiceDeps;
let account: Awaited<ReturnType<typeof accountWithKey>>;

// The operator's machine: a data dir with its embedded database, shared by this test and the `hcs-server mcp`
// child (SQLite in WAL mode takes readers and a writer from several processes).
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "hcs-mcp-stdio-"));
  const config = loadConfig({ HCS_DATA_DIR: dataDir }, process.cwd());
  const store = await openMigratedStore(config);
  deps = { store, now: () => new Date(), secrets: createSecretBox(loadMasterKey(dataDir, null)) };
  account = await accountWithKey(deps, { credits: 500 });
  await gradedPractice(deps, account.accountId, NPI);
});
afterAll(async () => {
  await deps?.store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The real `hcs-server mcp`, started by the SDK's stdio client transport as an assistant would start it. */
function stdioTransport(env: Record<string, string>) {
  return new StdioClientTransport({
    command: process.execPath,
    args: [...HCS_BIN.nodeArgs, "mcp"],
    cwd: join(import.meta.dirname, "..", ".."),
    env: { HCS_DATA_DIR: dataDir, HCS_LOG_LEVEL: "info", ...env },
    stderr: "pipe",
  });
}

describe("hcs-server mcp (stdio)", () => {
  it("serves the tools to the SDK's Client over stdio; a call is charged and audited as an mcp call from this host", async () => {
    const transport = stdioTransport({ HCS_MCP_API_KEY: account.apiKey });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const client = new Client({ name: "hcs-test", version: "1.0.0" });
    // Anything on stdout that is not an MCP frame would surface here as a parse error.
    const protocolErrors: Error[] = [];
    client.onerror = (err) => protocolErrors.push(err);
    await client.connect(transport);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      agentSkills(CATALOGUE.operations).map((op) => mcpToolName(op.method!)),
    );

    const before = (await getAccount(deps, account.accountId)).credits;
    const result = await client.callTool({ name: "hipaa_grade", arguments: { npi: NPI } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(JSON.parse(await gradeJsonForNpi(deps, NPI)));
    GradeRecordSchema.parse(result.structuredContent);
    expect((result.content as { text: string }[])[0]!.text).toContain(`(NPI ${NPI}) has grade`);
    expect((await getAccount(deps, account.accountId)).credits).toBe(before - 25);
    const callId = (result._meta!["hcs/call"] as { request_id: string }).request_id;
    const event = await deps.store.db
      .selectFrom("audit_trail")
      .select(["action", "transport", "client_ip", "actor_key_id"])
      .where("request_id", "=", callId)
      .executeTakeFirstOrThrow();
    expect(event).toEqual({
      action: "hipaa.grade",
      transport: "mcp",
      client_ip: "127.0.0.1",
      actor_key_id: account.keyId,
    });

    const bad = await client.callTool({ name: "hipaa_grade", arguments: { npi: "12345" } });
    expect(bad).toMatchObject({ isError: true, _meta: { "hcs/error": { code: "invalid_npi" } } });

    // The key is checked on every call, as an HTTP request's would be: revoked now, refused now.
    await revokeApiKey(deps, account.keyId);
    const revoked = await client.callTool({ name: "hipaa_grade", arguments: { npi: NPI } });
    expect(revoked).toMatchObject({ isError: true, _meta: { "hcs/error": { code: "key_revoked" } } });

    // Closing stdin ends the session: the server exits by itself, well before the client's 2 s SIGTERM fallback.
    const closing = performance.now();
    await client.close();
    expect(performance.now() - closing).toBeLessThan(1_900);
    expect(protocolErrors).toEqual([]);
    expect(stderr).toContain("mcp server on stdio");
    expect(stderr).not.toContain(account.apiKey);
  });

  it("refuses to start without a key, with a key on the command line, or with a key it does not accept (exit 2)", async () => {
    // A key file others can read is refused like any private key file.
    const keyFile = join(dataDir, "mcp.key");
    writeFileSync(keyFile, `${account.apiKey}\n`);
    chmodSync(keyFile, 0o644);
    const [missing, inline, wrong, exposed] = await Promise.all([
      runHcsServer(dataDir, ["mcp"]),
      runHcsServer(dataDir, ["mcp", "--key", "hcs_live_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"]),
      runHcsServer(dataDir, ["mcp"], { HCS_MCP_API_KEY: "hcs_live_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB" }),
      runHcsServer(dataDir, ["mcp", "--key-file", keyFile]),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/HCS_MCP_API_KEY: .*set HCS_MCP_API_KEY or pass --key-file/);
    expect(inline.code).toBe(2);
    expect(inline.stderr).toContain("shell history");
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("HCS_MCP_API_KEY: the key was refused (invalid_credentials)");
    expect(exposed.code).toBe(2);
    expect(exposed.stderr).toContain("chmod 600");
    // Nothing but MCP frames ever goes to stdout, refusals included.
    expect([missing, inline, wrong, exposed].map((r) => r.stdout)).toEqual(["", "", "", ""]);
  });
});

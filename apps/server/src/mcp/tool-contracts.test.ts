import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../catalogue/index.js";
import { httpRequestTo } from "../lab/https-client.js";
import { mcpToolName, type Operation } from "../operations/operation.js";
import { getAccount } from "../services/accounts.js";
import { type FullyEvidencedPractice, fullyEvidencedPractice } from "../test-support/fully-evidenced-practice.js";
import { exampleCall } from "../test-support/operation-examples.js";
import { shouldRunPostgres } from "../test-support/postgres.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";
import { annotationsOf, toolJsonSchema } from "./tools.js";

/*
 * The MCP tools as the official SDK's Client sees them, on a practice with every kind of data: every served tool
 * is called (the list comes from tools/list), its structuredContent must pass the SDK's own check against the
 * tool's outputSchema and the full JSON Schema of the operation's output, the list must stay small enough for a
 * model's context, and each readOnlyHint must match what the call was seen to do to the store.
 */

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const NOW = new Date("2026-11-24T12:00:10.000Z");
/** tools/list's answer, whole (JSON-RPC envelope included): about 8k tokens at most. */
const TOOLS_LIST_BUDGET_BYTES = 32 * 1024;
/** What a read's settlement writes: its rate-limit count, its charge and ledger row, its audit event. */
const SETTLEMENT_TABLES = new Set(["rate_limits", "credit_ledger", "accounts", "api_keys"]);

const operationOf = (tool: Tool): Operation =>
  CATALOGUE.operations.find((op) => op.method && mcpToolName(op.method) === tool.name)!;

const changedTables = (a: Map<string, string>, b: Map<string, string>) =>
  [...b.keys()].filter((name) => a.get(name) !== b.get(name));

/** The price of the call as a read: the declared metered price, a computed one as its declaration computes it. */
function readPrice(op: Operation, input: Record<string, unknown>, output: unknown): number | null {
  const price = op.price;
  if (!price) return 0;
  if (price.kind === "computed") return price.credits(input as never, output as never);
  return null; // checked by the call's own answer below
}

/** What one call did: the tables it changed besides its settlement, and the credits it took. */
interface Observation {
  readonly tool: string;
  readonly wrote: string[];
  readonly charged: number;
}

const runPg = await shouldRunPostgres();

describe.each(runPg ? (["sqlite", "postgres"] as const) : (["sqlite"] as const))("on %s", (engine) => {
  let t: TestServer;
  let fx: FullyEvidencedPractice;
  let toolsListBytes = 0;

  beforeAll(async () => {
    // The vendor domains' DNS is a loopback port nobody answers on: a vendor scan finds nothing, and stays on loopback.
    t = await startTestServer({ engine, now: () => NOW, env: { HCS_DNS_SERVERS: "127.0.0.1:9" } });
    fx = await fullyEvidencedPractice(t);
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const fetchTrustingCa: typeof fetch = async (input, init) => {
    const body = typeof init?.body === "string" ? init.body : undefined;
    const res = await httpRequestTo(String(input), {
      ca: t.ca,
      method: init?.method ?? "GET",
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(body !== undefined ? { body } : {}),
    });
    if (body?.includes('"method":"tools/list"')) toolsListBytes = Buffer.byteLength(res.text);
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) if (typeof value === "string") headers.set(name, value);
    return new Response([204, 205, 304].includes(res.status) ? null : res.text, { status: res.status, headers });
  };

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: "hcs-contracts", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
        fetch: fetchTrustingCa,
        requestInit: { headers: { "X-API-Key": key } },
      }),
    );
    return client;
  }

  /** Each table's rows as text, but the settlement's and the audit log's: what a call changed besides its settlement. */
  async function storeSnapshot(): Promise<Map<string, string>> {
    const db = t.server.deps.store.db;
    const tables =
      t.server.deps.store.engine === "postgres"
        ? await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    const out = new Map<string, string>();
    for (const { name } of tables.rows) {
      if (SETTLEMENT_TABLES.has(name) || name.startsWith("audit_") || name.startsWith("sqlite_")) continue;
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
      out.set(
        name,
        rows.rows
          .map((r) => JSON.stringify(r))
          .sort()
          .join("\n"),
      );
    }
    return out;
  }

  describe("MCP tools in the official SDK client, on a practice with every kind of data", () => {
    let tools: Tool[];
    const observed: Observation[] = [];

    it(`tools/list: every served agent method, the whole answer under ${TOOLS_LIST_BUDGET_BYTES} bytes`, async () => {
      const client = await connect(fx.owner.apiKey);
      tools = (await client.listTools()).tools;
      await client.close();
      expect(tools.map((tool) => tool.name)).toEqual(
        CATALOGUE.operations.filter((op) => op.method).map((op) => mcpToolName(op.method!)),
      );
      expect(toolsListBytes).toBeGreaterThan(10_000);
      expect(toolsListBytes).toBeLessThan(TOOLS_LIST_BUDGET_BYTES);
      for (const tool of tools) {
        const op = operationOf(tool);
        // What a model reads: what the tool is for, what it answers and costs, the price once; the input in full.
        expect(tool.description!.startsWith(`${op.summary}. `), tool.name).toBe(true);
        expect(tool.description!.match(/\bFree\b/g)?.length ?? 0, tool.description).toBeLessThanOrEqual(1);
        expect(tool.description, tool.name).toMatch(/\bcredits?\b|\bFree\b/);
        expect(tool.inputSchema).toEqual(JSON.parse(JSON.stringify(toolJsonSchema(op.input, "input"))));
        expect(tool.annotations).toEqual(annotationsOf(op));
      }
    });

    it("every tool's structuredContent passes the SDK client's outputSchema check and the full output schema", async () => {
      const full = new Ajv({ allErrors: true, strict: false });
      addFormats(full);
      const client = await connect(fx.owner.apiKey);
      await client.listTools(); // the client checks structuredContent against the outputSchemas it listed
      for (const tool of tools) {
        const op = operationOf(tool);
        const { input } = await exampleCall(t, fx, op);
        const before = await storeSnapshot();
        const balance = (await getAccount(t.server.deps, fx.owner.accountId)).credits;
        const result = await client.callTool({ name: tool.name, arguments: input });
        expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
        expect(result.structuredContent, tool.name).toBeDefined();
        const validate = full.compile(toolJsonSchema(op.output, "output"));
        expect(validate(result.structuredContent), `${tool.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        const charged = balance - (await getAccount(t.server.deps, fx.owner.accountId)).credits;
        observed.push({ tool: tool.name, wrote: changedTables(before, await storeSnapshot()), charged });
        const expected = readPrice(op, input, result.structuredContent);
        if (expected !== null && tool.annotations?.readOnlyHint) expect(charged, tool.name).toBe(expected);
      }
      // The KEV finding, whose id has upper case, is among the findings the client accepted.
      const findings = await client.callTool({ name: "hipaa_findings", arguments: { npi: fx.npi, limit: 200 } });
      expect(JSON.stringify(findings.structuredContent)).toContain("CVE-2021-40438");
      await client.close();
    }, 120_000);

    it("readOnlyHint only on tools seen to write nothing but their settlement; vendor risk scanning a domain is not one", async () => {
      const client = await connect(fx.owner.apiKey);
      // hipaa_vendor_risk for a domain never graded: it scans the domain, stores the grade and charges the scan.
      const before = await storeSnapshot();
      const balance = (await getAccount(t.server.deps, fx.owner.accountId)).credits;
      const scanned = await client.callTool(
        { name: "hipaa_vendor_risk", arguments: { npi: fx.npi, vendor_domain: "unscanned-vendor.test" } },
        undefined,
        { timeout: 60_000 },
      );
      expect(scanned.isError, JSON.stringify(scanned.content)).toBeFalsy();
      observed.push({
        tool: "hipaa_vendor_risk",
        wrote: changedTables(before, await storeSnapshot()),
        charged: balance - (await getAccount(t.server.deps, fx.owner.accountId)).credits,
      });
      await client.close();
      expect(observed.find((o) => o.tool === "hipaa_vendor_risk" && o.wrote.length > 0)).toMatchObject({
        wrote: ["vendor_domain_grades"],
        charged: 175,
      });
      for (const tool of tools) {
        const seen = observed.filter((o) => o.tool === tool.name);
        expect(seen.length, tool.name).toBeGreaterThan(0);
        const wrote = seen.some((o) => o.wrote.length > 0);
        if (tool.annotations?.readOnlyHint)
          expect(
            seen.map((o) => o.wrote),
            `${tool.name} is hinted read-only`,
          ).toEqual(seen.map(() => []));
        if (wrote) expect(tool.annotations?.readOnlyHint, `${tool.name} wrote ${JSON.stringify(seen)}`).toBe(false);
      }
    }, 120_000);
  });
});

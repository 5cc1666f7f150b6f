import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "./catalogue/index.js";
import { httpRequestTo } from "./lab/https-client.js";
import { mcpTools } from "./mcp/tools.js";
import { a2aClientFromCard } from "./test-support/a2a-client.js";
import { type FullyEvidencedPractice, fullyEvidencedPractice } from "./test-support/fully-evidenced-practice.js";
import { markedTableRows } from "./test-support/markdown-table.js";
import { startTestServer, type TestServer } from "./test-support/test-server.js";

/*
 * docs/api.md's client examples, run as written: each marked code block is taken from the markdown, saved as a
 * module beside the server's packages (so its imports resolve as in a user's project) and called against a test
 * server, as docs.test.ts does with webhooks.md's verifier. The MCP tool table is checked against the tool list.
 */

const API_MD = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "api.md"), "utf8");
const NOW = new Date("2026-11-24T12:00:10.000Z");

let t: TestServer;
let fx: FullyEvidencedPractice;
let dir: string;

beforeAll(async () => {
  t = await startTestServer({ now: () => NOW });
  fx = await fullyEvidencedPractice(t);
  const results = join(import.meta.dirname, "..", ".test-results");
  mkdirSync(results, { recursive: true });
  dir = mkdtempSync(join(results, "doc-examples-"));
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The code block of docs/api.md whose info string is `js <name>`, as a module to import. */
async function docModule(name: string): Promise<Record<string, unknown>> {
  const code = new RegExp(`\`\`\`js ${name}\\n([\\s\\S]*?)\`\`\``).exec(API_MD)?.[1];
  if (!code) throw new Error(`docs/api.md has no \`\`\`js ${name} block`);
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, code);
  return import(pathToFileURL(file).href);
}

/** Node's fetch cannot take a CA: the same calls over node:https, trusting the test server's CA. */
const fetchTrustingCa: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  const res = await httpRequestTo(url, {
    ca: t.ca,
    method: init?.method ?? (input instanceof Request ? input.method : "GET"),
    headers: Object.fromEntries(new Headers(init?.headers).entries()),
    ...(typeof init?.body === "string" ? { body: init.body } : {}),
  });
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v);
  return new Response([204, 205, 304].includes(res.status) ? null : res.text, { status: res.status, headers });
};

const restGrade = async () =>
  (await t.request(`/v1/a2a/grade/${fx.npi}`, { headers: { "X-API-Key": fx.owner.apiKey } })).json;

describe("docs/api.md's examples work as written", () => {
  it("the MCP example (the official TypeScript SDK client) gets the grade record, its summary and its price", async () => {
    const { gradeOverMcp } = (await docModule("mcp-example")) as {
      gradeOverMcp: (o: object) => Promise<{ grade: unknown; summary: string; credits: number }>;
    };
    const args = { baseUrl: t.url, apiKey: fx.owner.apiKey, fetch: fetchTrustingCa };
    const answer = await gradeOverMcp({ ...args, npi: fx.npi });
    expect(answer.grade).toEqual(await restGrade());
    expect(answer.summary).toContain(`(NPI ${fx.npi}) has grade`);
    expect(answer.credits).toBe(25);
    await expect(gradeOverMcp({ ...args, npi: "1234567890" })).rejects.toThrow(/^invalid_npi: /);
  });

  it("the A2A example (@a2a-js/sdk, a data part naming the skill) gets the grade record", async () => {
    const { gradeOverA2A } = (await docModule("a2a-example")) as { gradeOverA2A: (o: object) => Promise<unknown> };
    const args = { baseUrl: t.url, apiKey: fx.owner.apiKey, fetch: fetchTrustingCa };
    expect(await gradeOverA2A({ ...args, npi: fx.npi })).toEqual(await restGrade());
    await expect(gradeOverA2A({ ...args, npi: "1234567890" })).rejects.toMatchObject({
      name: "RequestMalformedError",
      envelopeCode: -32602,
      data: { code: "invalid_npi" },
    });
    // What the section warns of: the wire form handed to the SDK is serialized as an unknown role and empty parts.
    const client = await a2aClientFromCard(t.url, t.ca, fx.owner.apiKey);
    const wireForm = {
      messageId: "m-wire-form",
      role: "ROLE_USER",
      parts: [{ data: { skill: "hipaa.grade", params: { npi: fx.npi } } }],
    };
    await expect(
      client.sendMessage({ tenant: "", message: wireForm as never, configuration: undefined, metadata: undefined }),
    ).rejects.toMatchObject({
      data: {
        code: "invalid_body",
        details: { issues: expect.arrayContaining([{ path: "message.role", message: "Invalid input" }]) },
      },
    });
  });

  it("the A2A wire example (curl) is accepted as written: a submitted task", async () => {
    const section = API_MD.slice(API_MD.indexOf("### A2A v1.0"));
    const body = /-d '(\{"jsonrpc":"2\.0","id":1,"method":"SendMessage"[\s\S]*?)'\n/.exec(section)?.[1];
    expect(body).toBeDefined();
    const res = await t.request("/api/a2a", {
      method: "POST",
      headers: { "X-API-Key": fx.owner.apiKey, "A2A-Version": "1.0", "Content-Type": "application/json" },
      body: body!.replaceAll("1234567893", fx.npi),
    });
    expect(res.json.error, res.text).toBeUndefined();
    expect(res.json.result.task).toMatchObject({
      contextId: "ctx-onboarding-42",
      status: { state: "TASK_STATE_SUBMITTED" },
      metadata: { skill: "hipaa.scan", npi: fx.npi },
    });
  });

  it("the MCP tool table lists every served tool with its annotations", () => {
    const rows = markedTableRows(API_MD, "mcp-tools");
    const yes = (b: boolean) => (b ? "yes" : "no");
    expect(rows).toEqual(
      mcpTools(CATALOGUE.operations).list.map((tool) => [
        `\`${tool.name}\``,
        yes(tool.annotations.readOnlyHint),
        yes(tool.annotations.idempotentHint),
        yes(tool.annotations.destructiveHint),
        yes(tool.annotations.openWorldHint),
      ]),
    );
  });
});

import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { CATALOGUE } from "../catalogue/index.js";
import { publicRoutesOf } from "../documents/index.js";
import type { TestResponse } from "../lab/https-client.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { type FullyEvidencedPractice, fullyEvidencedPractice } from "../test-support/fully-evidenced-practice.js";
import { exampleCall, type RestRequest, restRequestOf } from "../test-support/operation-examples.js";
import { shouldRunPostgres } from "../test-support/postgres.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";
import { documentedOperations } from "./document.js";

/*
 * What /openapi-a2a.yaml promises, held against what the server answers: every documented REST operation is called
 * over HTTPS — a call that succeeds, and calls that fail (no key, another account's key, an account without credits,
 * a malformed path parameter) — on a practice with every kind of data, and each answer must be one the document
 * describes: a status it lists, a media type it lists, the headers it lists, and a body that its schema accepts.
 * The schemas are checked by an independent validator (Ajv's JSON Schema 2020-12 dialect, which OpenAPI 3.1 uses,
 * with ajv-formats) on the document as the server serves it, dereferenced by swagger-parser. The operations come
 * from the catalogue, so a new one is checked without a new test.
 */

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const NOW = new Date("2026-11-24T12:00:10.000Z");

type Schema = Record<string, unknown>;
interface DocResponse {
  readonly content?: Record<string, { schema?: Schema }>;
  readonly headers?: Record<string, unknown>;
}
interface DocOperation {
  readonly responses: Record<string, DocResponse>;
}

const ajv = new Ajv2020({ strict: true, allErrors: true, strictTypes: false });
addFormats(ajv);
// OpenAPI's own annotations beside JSON Schema's.
for (const keyword of ["example", "discriminator", "xml", "externalDocs"]) ajv.addKeyword(keyword);
const compiled = new WeakMap<Schema, ValidateFunction>();
const runPg = await shouldRunPostgres();
const documented = documentedOperations(CATALOGUE);
const docPathOf = (koaPath: string) => koaPath.replace(/:([A-Za-z_]+)/g, "{$1}");
const mediaType = (res: TestResponse) =>
  String(res.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim();

/** The problems of one answer against the document's entry for it (empty when it conforms). */
function problemsOf(
  paths: Record<string, Record<string, DocOperation>>,
  docPath: string,
  method: string,
  res: TestResponse,
): string[] {
  const op = paths[docPath]?.[method];
  if (!op) return [`${method.toUpperCase()} ${docPath} is not in the document`];
  const entry = op.responses[String(res.status)];
  if (!entry) return [`status ${res.status} is not documented (${Object.keys(op.responses).join(", ")}): ${res.text}`];
  const problems: string[] = [];
  for (const header of Object.keys(entry.headers ?? {}))
    if (res.headers[header.toLowerCase()] === undefined) problems.push(`header ${header} missing`);
  if (!entry.content) return res.text === "" ? problems : [...problems, "a body the document does not describe"];
  const type = mediaType(res);
  const content = entry.content[type];
  if (!content) return [...problems, `media type ${type} is not documented (${Object.keys(entry.content)})`];
  if (!content.schema) return problems;
  let validate = compiled.get(content.schema);
  if (!validate) {
    validate = ajv.compile(content.schema);
    compiled.set(content.schema, validate);
  }
  const body = type === "application/json" ? JSON.parse(res.text) : res.text;
  if (!validate(body))
    problems.push(
      ...(validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`),
    );
  return problems;
}

describe.each(runPg ? (["sqlite", "postgres"] as const) : (["sqlite"] as const))("on %s", (engine) => {
  let t: TestServer;
  let fx: FullyEvidencedPractice;
  let other: Awaited<ReturnType<typeof accountWithKey>>;
  let broke: Awaited<ReturnType<typeof accountWithKey>>;
  let paths: Record<string, Record<string, DocOperation>>;

  beforeAll(async () => {
    t = await startTestServer({ engine, now: () => NOW });
    fx = await fullyEvidencedPractice(t);
    other = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 10_000 });
    broke = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 0 });
    const served = await t.request("/openapi-a2a.yaml");
    expect(served.status).toBe(200);
    paths = ((await SwaggerParser.dereference(parseYaml(served.text))) as unknown as { paths: typeof paths }).paths;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const send = (req: RestRequest, key: string | null) =>
    t.request(req.path, {
      method: req.method,
      headers: { ...req.headers, ...(key ? { "X-API-Key": key } : {}) },
      ...(req.body !== undefined ? { body: req.body } : {}),
      timeoutMs: 30_000,
    });

  describe("every REST answer is one /openapi-a2a.yaml describes", () => {
    it.each(documented.map((op) => [`${op.rest!.method.toUpperCase()} ${op.rest!.path}`, op] as const))(
      "%s: success and errors",
      async (_name, op) => {
        const docPath = docPathOf(op.rest!.path);
        const method = op.rest!.method;
        const call = await exampleCall(t, fx, op);
        const answers: [string, TestResponse][] = [];
        const ok = await send(call.rest, fx.owner.apiKey);
        expect(ok.status, `${op.id} for its owner: ${ok.text.slice(0, 400)}`).toBe(op.rest!.status ?? 200);
        answers.push(["owner", ok]);
        if (op.group === "b") answers.push(["no key", await send(call.rest, null)]);
        if (op.group !== "public") {
          answers.push(["another account", await send(call.rest, other.apiKey)]);
          if (op.price) answers.push(["no credits", await send(call.rest, broke.apiKey)]);
        }
        const param = /:([A-Za-z_]+)/.exec(op.rest!.path)?.[1];
        if (param) {
          const malformed = restRequestOf(op, { ...call.input, [param]: " bad!" });
          answers.push([`malformed ${param}`, await send(malformed, fx.owner.apiKey)]);
        }
        const problems = answers.flatMap(([who, res]) =>
          problemsOf(paths, docPath, method, res).map((p) => `${who} (${res.status}): ${p}`),
        );
        expect(problems, `${op.id}`).toEqual([]);
        // The error cases were errors: the document's error entries were exercised, not only its success.
        if (op.group === "b") expect(answers.find(([who]) => who === "no key")![1].status).toBe(401);
      },
    );

    it.each(
      publicRoutesOf(CATALOGUE)
        .filter((r) => !r.internal)
        .map((r) => [r.path, r] as const),
    )("public document %s", async (path, route) => {
      const res = await t.request(path);
      expect(problemsOf(paths, route.path, "get", res)).toEqual([]);
    });

    it("the practice has every kind of finding, a KEV finding among them", () => {
      expect(fx.findingIds.external.length).toBeGreaterThan(0);
      expect(fx.findingIds.administrative.length).toBeGreaterThan(0);
      expect(fx.findingIds.internal).toContain(
        "patches.known_exploited_vulnerability:CVE-2021-40438@Apache_HTTP_Server",
      );
    });
  });
});

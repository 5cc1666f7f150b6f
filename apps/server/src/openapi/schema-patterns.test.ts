import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { DECLARATIONS } from "../catalogue/declarations.js";
import { publicRoutesOf } from "../documents/index.js";
import { mcpToolList } from "../mcp/tools.js";
import { buildOpenApiDocument, openApiYaml } from "./document.js";

/**
 * A JSON Schema `pattern` is the text of an ECMA-262 regular expression without flags: there is nowhere to write
 * `/i`. zod keeps a regex's flags for its own checks, but its JSON Schema export drops them (the MCP tool schemas
 * then refuse what zod accepts) and zod-to-openapi writes them into the pattern (`…$/i`, which then matches
 * nothing real). So no schema the catalogue publishes may rely on flags: case-insensitivity is written into the
 * pattern itself ([A-Za-z]).
 */

interface ZodInternals {
  readonly def: { readonly pattern?: unknown; readonly checks?: readonly { readonly _zod: ZodInternals }[] };
}

/** Every regex of a string check in `schema` and the schemas it contains, found by walking its JSON Schema export. */
function regexesOf(schema: z.ZodType, io: "input" | "output"): RegExp[] {
  const found: RegExp[] = [];
  z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: ({ zodSchema }) => {
      // A string's checks (`.regex()`), and a format schema (z.email()) that is its own first check.
      const zod = (zodSchema as unknown as { _zod: ZodInternals })._zod;
      for (const check of [zod, ...(zod.def.checks ?? []).map((c) => c._zod)])
        if (check.def.pattern instanceof RegExp) found.push(check.def.pattern);
    },
  });
  return found;
}

/** Every schema the catalogue declares: each operation's input and output, each public document's answer. */
function publishedSchemas(): { name: string; schema: z.ZodType; io: "input" | "output" }[] {
  return [
    ...DECLARATIONS.flatMap((op) => [
      { name: `${op.id} input`, schema: op.input, io: "input" as const },
      { name: `${op.id} output`, schema: op.output, io: "output" as const },
    ]),
    ...publicRoutesOf({ operations: DECLARATIONS }).flatMap((route) =>
      route.response.schema ? [{ name: `${route.id}`, schema: route.response.schema, io: "output" as const }] : [],
    ),
  ];
}

/** Each `pattern` value anywhere in a JSON document. */
function patternsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) patternsIn(item, out);
  else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      if (key === "pattern" && typeof value === "string") out.push(value);
      else patternsIn(value, out);
    }
  return out;
}

describe("regular expressions in published schemas", () => {
  it("no schema of the catalogue relies on regex flags", () => {
    const flagged = publishedSchemas().flatMap(({ name, schema, io }) =>
      regexesOf(schema, io)
        .filter((re) => re.flags !== "")
        .map((re) => `${name}: ${String(re)}`),
    );
    expect(flagged).toEqual([]);
    // The walk sees nested schemas: the finding id rule sits in findings, jobs and grade records.
    expect(regexesOf(DECLARATIONS.find((op) => op.id === "listFindings")!.output, "output").length).toBeGreaterThan(1);
  });

  it("every pattern the OpenAPI document and the MCP tool list publish is a flagless ECMA-262 (unicode) regex", () => {
    const doc = parseYaml(
      openApiYaml(
        buildOpenApiDocument({ operations: DECLARATIONS }, publicRoutesOf({ operations: DECLARATIONS }), {
          version: "t",
          serverUrl: "https://h",
        }),
      ),
    );
    const tools = mcpToolList(DECLARATIONS);
    const patterns = [...patternsIn(doc), ...patternsIn(tools)];
    expect(patterns.length).toBeGreaterThan(10);
    for (const pattern of patterns) {
      expect(pattern, pattern).not.toMatch(/\/[dgimsuvy]+$/);
      expect(() => new RegExp(pattern, "u"), pattern).not.toThrow();
    }
  });
});

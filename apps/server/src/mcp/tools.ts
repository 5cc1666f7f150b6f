import { z } from "zod";
import { agentSkills } from "../a2a/agent-card.js";
import { priceText } from "../operations/describe.js";
import { mcpToolName, type Operation } from "../operations/operation.js";

type JsonSchema = Record<string, unknown> & { type: "object" };

/** The MCP `Tool` of one agent method, as tools/list sends it. */
export interface McpToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  readonly annotations: {
    readonly title: string;
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
    readonly openWorldHint: boolean;
  };
}

/** The served tools: their definitions in catalogue order, and the operation behind each name. */
export interface McpToolSet {
  readonly list: readonly McpToolDefinition[];
  readonly operations: ReadonlyMap<string, Operation>;
}

/**
 * A zod schema as a JSON Schema object. Draft-07, as the SDK's own McpServer emits for zod 4 and as the SDK's client
 * compiles with Ajv's default dialect (a 2020-12 `$schema` would not compile there); MCP lets `$schema` name the
 * dialect. A schema registered with an id comes out as a `$ref` to its definition, but MCP wants `type: "object"`
 * at the root, so the referenced definition is inlined there (the definitions stay for nested references).
 */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "any" }) as Record<string, unknown>;
  const ref = typeof json.$ref === "string" ? /^#\/definitions\/(.+)$/.exec(json.$ref) : null;
  const definitions = json.definitions as Record<string, Record<string, unknown>> | undefined;
  const { $ref: _ref, ...rest } = json;
  const root = ref && definitions?.[ref[1]!] ? { ...rest, ...definitions[ref[1]!] } : json;
  if (root.type !== "object") throw new Error(`MCP tool schemas must describe objects (got ${String(root.type)})`);
  return root as JsonSchema;
}

/**
 * Hints for clients that ask before running a tool. Read-only comes from the catalogue; an operation that changes
 * something creates (a scan job), never deletes or overwrites, so it is not destructive; and it is not idempotent
 * (each call is a new job). A metered read is not idempotent either: every call takes credits from the account.
 */
function annotationsOf(op: Operation): McpToolDefinition["annotations"] {
  return {
    title: op.summary,
    readOnlyHint: op.readOnly,
    destructiveHint: op.destructive ?? false,
    idempotentHint: op.readOnly && !op.price,
    openWorldHint: op.openWorld,
  };
}

/** One tool per served agent method (the agent card's skills), named `hipaa_<name>`, described from the catalogue. */
export function mcpTools(operations: readonly Operation[]): McpToolSet {
  const served = agentSkills(operations);
  const list = served.map(
    (op): McpToolDefinition => ({
      name: mcpToolName(op.method!),
      title: op.summary,
      description: op.description.includes("credits") ? op.description : `${op.description} ${priceText(op)}.`,
      inputSchema: toolJsonSchema(op.input, "input"),
      outputSchema: toolJsonSchema(op.output, "output"),
      annotations: annotationsOf(op),
    }),
  );
  return { list, operations: new Map(served.map((op) => [mcpToolName(op.method!), op])) };
}

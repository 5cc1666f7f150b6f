import { z } from "zod";
import { agentSkills } from "../a2a/agent-card.js";
import { describedWithPrice } from "../operations/describe.js";
import { mcpToolName, type Operation } from "../operations/operation.js";

type JsonSchema = Record<string, unknown> & { type: "object" };
type Node = Record<string, unknown>;

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
 * at the root, so the referenced definition is moved to the root (and kept in `definitions` only when something
 * else refers to it).
 */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "any" }) as Node;
  const ref = typeof json.$ref === "string" ? /^#\/definitions\/(.+)$/.exec(json.$ref) : null;
  const definitions = json.definitions as Record<string, Node> | undefined;
  const { $ref: _ref, definitions: _defs, ...rest } = json;
  let root: Node = json;
  if (ref && definitions?.[ref[1]!]) {
    const name = ref[1]!;
    const { [name]: rootDefinition, ...others } = definitions;
    const stillReferenced = JSON.stringify([rootDefinition, others]).includes(`"#/definitions/${name}"`);
    const kept = stillReferenced ? definitions : others;
    root = { ...rest, ...rootDefinition, ...(Object.keys(kept).length > 0 ? { definitions: kept } : {}) };
  }
  if (root.type !== "object") throw new Error(`MCP tool schemas must describe objects (got ${String(root.type)})`);
  return root as JsonSchema;
}

/** Enumerations longer than this are left out of an outline (the full list is in the OpenAPI document). */
const OUTLINE_ENUM_MAX = 12;

/** A schema with its `$ref` resolved and a single-member `allOf` (zod's wrapping of a referenced schema) unwrapped. */
function resolved(node: Node, definitions: Record<string, Node>): Node {
  let n = node;
  for (let i = 0; i < 8; i++) {
    const ref = typeof n.$ref === "string" ? /^#\/definitions\/(.+)$/.exec(n.$ref) : null;
    if (ref && definitions[ref[1]!])
      n = { ...definitions[ref[1]!], ...Object.fromEntries(Object.entries(n).filter(([k]) => k !== "$ref")) };
    else if (Array.isArray(n.allOf) && n.allOf.length === 1) {
      const { allOf, ...rest } = n;
      n = { ...rest, ...(allOf[0] as Node) };
    } else return n;
  }
  return n;
}

/**
 * What a value is, without what it contains: its type (an object's or array's items only by their type), a short
 * enumeration or constant, its format, a field's description. Every value the full schema accepts, this accepts.
 */
function outlineOf(node: Node, definitions: Record<string, Node>, depth: number): Node {
  const n = resolved(node, definitions);
  const union = (n.anyOf ?? n.oneOf) as Node[] | undefined;
  if (union) {
    const branches = union.map((b) => outlineOf(b, definitions, depth));
    const bare = branches.every((b) => Object.keys(b).length === 1 && typeof b.type === "string");
    if (bare) return { type: [...new Set(branches.map((b) => b.type as string))] };
    const distinct = [...new Map(branches.map((b) => [JSON.stringify(b), b])).values()];
    return distinct.length === 1 ? distinct[0]! : { anyOf: distinct };
  }
  const out: Node = {};
  if (n.type !== undefined) out.type = n.type;
  if (n.const !== undefined) out.const = n.const;
  if (Array.isArray(n.enum) && n.enum.length <= OUTLINE_ENUM_MAX) out.enum = n.enum;
  if (typeof n.format === "string") out.format = n.format;
  if (depth === 0 && typeof n.description === "string") out.description = n.description;
  if (n.type === "array" && n.items && typeof n.items === "object" && depth === 0) {
    const items = outlineOf(n.items as Node, definitions, depth + 1);
    if (Object.keys(items).length > 0) out.items = items;
  }
  return out;
}

/**
 * The outline of an output schema that tools/list publishes: the result's fields with their types, required
 * fields and descriptions, and what each field holds only by type. It validates every result the full schema does
 * (the SDK's client checks structuredContent against it), is a few hundred bytes instead of several kilobytes, and
 * uses only keywords draft-07 and 2020-12 read alike, so it names no `$schema`. The full schema of each result is
 * the REST twin's in /openapi-a2a.yaml (docs/api.md, "MCP").
 */
export function outlineSchema(full: JsonSchema): JsonSchema {
  const definitions = (full.definitions ?? {}) as Record<string, Node>;
  const branches = (full.anyOf ?? full.oneOf) as Node[] | undefined;
  // A result of several shapes (the grade lookup: a grade record or not_yet_assessed): the fields of every shape,
  // each with the outline of what it may hold; required only what every shape requires.
  if (branches && !full.properties)
    return unionOutline(
      branches.map((b) => resolved(b, definitions)),
      definitions,
    );
  const properties = (full.properties ?? {}) as Record<string, Node>;
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, outlineOf(v, definitions, 0)])),
    ...(Array.isArray(full.required) ? { required: full.required } : {}),
    ...(full.additionalProperties === false ? { additionalProperties: false } : {}),
  } as JsonSchema;
}

function unionOutline(branches: readonly Node[], definitions: Record<string, Node>): JsonSchema {
  const fields = new Map<string, Node[]>();
  for (const b of branches)
    for (const [k, v] of Object.entries((b.properties ?? {}) as Record<string, Node>))
      fields.set(k, [...(fields.get(k) ?? []), v]);
  const required = branches
    .map((b) => (Array.isArray(b.required) ? (b.required as string[]) : []))
    .reduce((a, b) => a.filter((k) => b.includes(k)));
  return {
    type: "object",
    properties: Object.fromEntries(
      [...fields].map(([k, vs]) => [
        k,
        vs.length === 1 ? outlineOf(vs[0]!, definitions, 0) : outlineOf({ anyOf: vs }, definitions, 0),
      ]),
    ),
    ...(required.length > 0 ? { required } : {}),
  } as JsonSchema;
}

/**
 * Hints for clients that ask before running a tool, from the declaration. Read-only only when nothing is written
 * or charged beyond a read: the operation changes nothing, is not charged by its handler with its work (a scan's
 * job), and does not reach beyond the service's records — here that is a scan of a domain, which is charged as a
 * scan and stores the grade it finds. Nothing deletes or overwrites unless declared destructive; a call that takes
 * credits is not idempotent (each call takes them again), nor is one that changes something.
 */
export function annotationsOf(op: Operation): McpToolDefinition["annotations"] {
  const readOnly = op.readOnly && !op.openWorld && op.price?.kind !== "charged_by_handler";
  return {
    title: op.summary,
    readOnlyHint: readOnly,
    destructiveHint: op.destructive ?? false,
    idempotentHint: readOnly && !op.price,
    openWorldHint: op.openWorld,
  };
}

/**
 * One tool per served agent method (the agent card's skills), named `hipaa_<name>`, described from the catalogue:
 * what it is for (the summary), what it answers and costs (the description, the price once), the complete input
 * schema and the outline of the output.
 */
export function mcpTools(operations: readonly Operation[]): McpToolSet {
  const served = agentSkills(operations);
  const list = served.map(
    (op): McpToolDefinition => ({
      name: mcpToolName(op.method!),
      title: op.summary,
      description: `${op.summary}. ${describedWithPrice(op)}`,
      inputSchema: toolJsonSchema(op.input, "input"),
      outputSchema: outlineSchema(toolJsonSchema(op.output, "output")),
      annotations: annotationsOf(op),
    }),
  );
  return { list, operations: new Map(served.map((op) => [mcpToolName(op.method!), op])) };
}

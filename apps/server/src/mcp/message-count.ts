import type { Operation } from "../operations/operation.js";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A well-formed tools/call request (the SDK hands it to our handler) naming a served tool whose operation invoke
 * counts — every operation but the public ones, which are never limited on REST either.
 */
function isCountedToolCall(message: unknown, tools: ReadonlyMap<string, Operation>): boolean {
  if (!isObject(message) || message.jsonrpc !== "2.0" || message.method !== "tools/call") return false;
  if (typeof message.id !== "string" && typeof message.id !== "number") return false;
  const params = message.params;
  if (!isObject(params) || typeof params.name !== "string") return false;
  const operation = tools.get(params.name);
  return (
    operation !== undefined &&
    operation.group !== "public" &&
    (params.arguments === undefined || isObject(params.arguments))
  );
}

/**
 * Whether a POST body (undefined when it is not JSON) is counted once for the request: when it carries anything
 * but tool calls that invoke counts itself. Protocol messages — initialize, tools/list, ping, notifications — are
 * counted but not audited: they read nothing of an account (the tool list is the catalogue's), as reading the agent
 * card is not audited; counting them is what keeps a client from sending them without limit.
 */
export function countsAsRequest(body: unknown, tools: ReadonlyMap<string, Operation>): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return body === undefined || messages.length === 0 || !messages.every((m) => isCountedToolCall(m, tools));
}

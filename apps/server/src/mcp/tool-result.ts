import type { ServiceError } from "../errors.js";
import type { InvokeResult } from "../operations/invoke.js";
import { type OperationDeclaration, PreserializedJson } from "../operations/operation.js";
import { summarizeOutput } from "../operations/summaries.js";

/** What tools/call answers (the SDK's CallToolResult, written out so this module does not load the SDK). */
export interface ToolCallResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** `_meta` keys of our results: a prefix of our own, as MCP asks of implementation-specific metadata. */
export const META_CALL = "hcs/call";
export const META_ERROR = "hcs/error";

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** What the person reading the chat should know next, for the errors where there is something to do. */
function hintFor(error: ServiceError): string {
  const d = error.details ?? {};
  switch (error.code) {
    case "insufficient_credits":
      return ` The call needs ${String(d.required)} credits and the account has ${String(d.balance)}.`;
    case "rate_limited":
      return typeof d.retry_after_seconds === "number" ? ` Try again in ${d.retry_after_seconds} s.` : "";
    default:
      return "";
  }
}

/**
 * An invocation's outcome as an MCP tool result. Success: the operation's output as structuredContent (the same
 * object REST answers) plus a one-paragraph summary, and what the call cost in `_meta`. Failure: an `isError`
 * result — a tool error the model can read and act on, not a protocol error — whose text says what went wrong and
 * whose `_meta` carries the error body's code, message and details. Not in structuredContent: a client validates any
 * structuredContent against the tool's outputSchema, error results included (the SDK's Client does), and an error
 * body is not a grade record.
 */
export function toolResult(
  tool: { readonly name: string; readonly operation: OperationDeclaration },
  result: InvokeResult,
  requestId: string,
): ToolCallResult {
  if (!result.ok) {
    const e = result.error;
    return {
      content: [{ type: "text", text: `${tool.name} failed (${e.code}): ${sentence(e.message)}${hintFor(e)}` }],
      isError: true,
      _meta: {
        [META_ERROR]: { code: e.code, message: e.message, details: e.details ?? {}, request_id: requestId },
      },
    };
  }
  const output = (result.output instanceof PreserializedJson ? result.output.value() : result.output) as Record<
    string,
    unknown
  >;
  return {
    content: [{ type: "text", text: summarizeOutput(tool.operation, output) }],
    structuredContent: output,
    _meta: {
      [META_CALL]: {
        request_id: requestId,
        credits_charged: result.charged?.credits ?? 0,
        ...(result.charged ? { credits_remaining: result.charged.balance } : {}),
      },
    },
  };
}

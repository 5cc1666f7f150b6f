import type { OperationDeclaration } from "./operation.js";

const listed = (items: readonly string[], max: number) =>
  items.length <= max ? items.join(", ") : `${items.slice(0, max).join(", ")} and ${items.length - max} more`;

/**
 * The one-paragraph summary of a successful call's output, for every transport that shows one beside the structured
 * result (an MCP tool result's text, an A2A message's text part): the operation's own (its declaration's
 * `summarize`), or the generic sentence.
 */
export function summarizeOutput(operation: OperationDeclaration, output: Record<string, unknown>): string {
  const name = operation.method ?? operation.id;
  if (operation.summarize) {
    try {
      return operation.summarize(output);
    } catch {
      // A shape the summary did not expect must not turn a good result into an error: fall back to the generic text.
    }
  }
  return `${name} succeeded; the full result is attached (${listed(Object.keys(output), 8)}).`;
}

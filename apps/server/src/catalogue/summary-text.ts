/*
 * Words for the chat summaries of operations (OperationDeclaration.summarize): one paragraph a person can read in a
 * chat, beside the structured result, as an MCP tool result's text and an A2A message's text part. The complete result
 * is always next to it; a summary only picks what a person asks about first.
 */

export const words = (name: string) => name.replace(/_/g, " ");
export const day = (iso: string) => iso.slice(0, 10);
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** At most `max` items in a sentence, then how many more. */
export const listed = (items: readonly string[], max: number) =>
  items.length <= max ? items.join(", ") : `${items.slice(0, max).join(", ")} and ${items.length - max} more`;

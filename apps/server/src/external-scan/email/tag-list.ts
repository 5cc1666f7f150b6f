/** One `name=value` pair of a DNS tag list; the name is lower-cased, both sides trimmed. */
export interface Tag {
  readonly name: string;
  readonly value: string;
  /** Index among the non-empty parts, so a rule like "v= comes first" can be checked. */
  readonly position: number;
}

/** A tag list split in order: the pairs, and the non-empty parts that are not `name=value`. */
export interface TagList {
  readonly tags: readonly Tag[];
  readonly malformed: readonly string[];
}

/**
 * Splits the `tag=value; tag=value` syntax shared by DKIM (RFC 6376 §3.2), DMARC (RFC 7489 §6.4),
 * MTA-STS (RFC 8461 §3.1) and TLS-RPT (RFC 8460 §3). Order and repeats are kept because the record
 * rules differ on them (DMARC needs v= first; each caller decides which repeat wins).
 */
export function parseTagList(text: string): TagList {
  const tags: Tag[] = [];
  const malformed: string[] = [];
  const parts = text
    .split(";")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  for (const [position, part] of parts.entries()) {
    const eq = part.indexOf("=");
    if (eq <= 0) malformed.push(part);
    else tags.push({ name: part.slice(0, eq).trim().toLowerCase(), value: part.slice(eq + 1).trim(), position });
  }
  return { tags, malformed };
}

/** The first value of each tag name (RFC 6376 §3.2 leaves repeats undefined; the first is the safe reading). */
export function firstTagValues(tags: readonly Tag[]): Map<string, string> {
  const first = new Map<string, string>();
  for (const tag of tags) if (!first.has(tag.name)) first.set(tag.name, tag.value);
  return first;
}

/** Tag names that appear more than once (RFC 6376 §3.2 makes such a DKIM tag-list invalid). */
export function duplicateTagNames(tags: readonly Tag[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const { name } of tags) (seen.has(name) ? repeated : seen).add(name);
  return [...repeated];
}

/**
 * A DKIM tag-list (RFC 6376 §3.2) read strictly: the first value of each tag, and the problems that make the whole
 * list invalid (a part without "=", a repeated tag name).
 */
export function strictTagList(text: string): { tags: Map<string, string>; problems: string[] } {
  const list = parseTagList(text);
  const problems = [
    ...list.malformed.map((part) => `"${part}" is not a tag=value pair`),
    ...duplicateTagNames(list.tags).map((name) => `tag ${name}= appears more than once`),
  ];
  return { tags: firstTagValues(list.tags), problems };
}

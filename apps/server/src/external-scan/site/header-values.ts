/**
 * Fetch's "get, decode, and split" for a combined header value (duplicate fields arrive joined with ", "): the
 * comma-separated values, each stripped of HTTP tab or space, with commas inside quoted strings kept. Null when
 * the header is absent.
 */
export function splitHeaderValues(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const values: string[] = [];
  let current = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '"') {
      // An HTTP quoted string runs to the next unescaped quote, and stays part of the value.
      let j = i + 1;
      while (j < value.length && value[j] !== '"') j += value[j] === "\\" ? 2 : 1;
      current += value.slice(i, j + 1);
      i = j;
    } else if (c === ",") {
      values.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  values.push(current);
  return values.map((v) => v.replace(/^[\t ]+|[\t ]+$/g, ""));
}

/** Fetch's "determine nosniff": the first X-Content-Type-Options value is "nosniff", in any case. */
export function isNosniff(value: string | undefined): boolean {
  return splitHeaderValues(value)?.[0]?.toLowerCase() === "nosniff";
}

/**
 * The JSON text of each request's `id` member as the client wrote it, read from a body JSON.parse has accepted:
 * one entry for a request object, one per element for a batch (undefined where there is no object or no id). A
 * number id is echoed from this text, because JSON.parse rounds ids beyond 2^53 (`12345678901234567891` would come
 * back `12345678901234567000`) and rewrites `1.0` as `1`; JSON-RPC 2.0 wants the same id back. Where a member is
 * repeated, the last one counts, as in JSON.parse.
 */
export function idTexts(text: string): (string | undefined)[] {
  const cursor = new Cursor(text);
  cursor.space();
  if (cursor.at() !== OPEN_ARRAY) return [cursor.objectId()];
  const ids: (string | undefined)[] = [];
  cursor.i++;
  cursor.space();
  if (cursor.at() === CLOSE_ARRAY) return ids;
  for (;;) {
    cursor.space();
    ids.push(cursor.objectId());
    cursor.space();
    if (cursor.at() !== COMMA) return ids;
    cursor.i++;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** A walk over valid JSON text (JSON.parse accepted it: no syntax is checked here). */
class Cursor {
  i = 0;
  constructor(private readonly s: string) {}

  at(): number {
    return this.s.charCodeAt(this.i);
  }

  space(): void {
    const s = this.s;
    let i = this.i;
    for (let c = s.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = s.charCodeAt(++i));
    this.i = i;
  }

  /** At an opening quote: moves past the string and returns its text, quotes included. */
  string(): string {
    const s = this.s;
    const start = this.i;
    let from = start + 1;
    for (;;) {
      const quote = s.indexOf('"', from);
      let backslashes = 0;
      while (s.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
      from = quote + 1;
      if (backslashes % 2 === 0) {
        this.i = from;
        return s.slice(start, from);
      }
    }
  }

  /** Moves past one value of any kind. */
  skip(): void {
    const s = this.s;
    const first = this.at();
    if (first === QUOTE) {
      this.string();
      return;
    }
    if (first === OPEN_ARRAY || first === OPEN_OBJECT) {
      let depth = 0;
      do {
        const c = this.at();
        if (c === QUOTE) {
          this.string();
          continue;
        }
        if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
        else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
        this.i++;
      } while (depth > 0);
      return;
    }
    // A number or a literal: up to the next delimiter.
    let i = this.i;
    for (let c = s.charCodeAt(i); i < s.length; c = s.charCodeAt(++i))
      if (c === COMMA || c === CLOSE_ARRAY || c === CLOSE_OBJECT || c <= 0x20) break;
    this.i = i;
  }

  /** At a value: the text of its `id` member when it is an object that has one; moves past the value. */
  objectId(): string | undefined {
    if (this.at() !== OPEN_OBJECT) {
      this.skip();
      return undefined;
    }
    let id: string | undefined;
    this.i++;
    this.space();
    if (this.at() === CLOSE_OBJECT) {
      this.i++;
      return id;
    }
    for (;;) {
      this.space();
      const key = this.string();
      this.space();
      if (this.at() === COLON) this.i++;
      this.space();
      const start = this.i;
      this.skip();
      if (key === '"id"' || (key.includes("\\") && JSON.parse(key) === "id")) id = this.s.slice(start, this.i);
      this.space();
      if (this.at() !== COMMA) break;
      this.i++;
    }
    this.i++; // the closing brace
    return id;
  }
}

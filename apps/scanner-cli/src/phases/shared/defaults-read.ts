/**
 * Readers for macOS `defaults read`. A whole domain prints as an old-style (NeXTSTEP) property list
 * (`{ Key = value; List = ( a, b ); }`); a single key prints its bare value, or an error when it is unset.
 */

/** A value of an old-style property list: a string (numbers and booleans are strings too), a list or a dictionary. */
export type OldPlistValue = string | OldPlistValue[] | { [key: string]: OldPlistValue };
export type OldPlistDict = { [key: string]: OldPlistValue };

type Token = { kind: "punct"; value: string } | { kind: "string"; value: string };

const PUNCT = new Set(["{", "}", "(", ")", "=", ";", ","]);

function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (PUNCT.has(c)) {
      tokens.push({ kind: "punct", value: c });
      i++;
    } else if (c === '"') {
      let value = "";
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === "\\" && i + 1 < text.length) i++;
        value += text[i];
        i++;
      }
      if (i >= text.length) return null;
      i++;
      tokens.push({ kind: "string", value });
    } else {
      const m = /^[^\s{}()=;,"]+/.exec(text.slice(i))!;
      tokens.push({ kind: "string", value: m[0] });
      i += m[0].length;
    }
  }
  return tokens;
}

/**
 * `defaults read <domain>`: the dictionary the domain holds, or null when the text is not one. Anything before
 * the opening brace (a sudo prompt, a logged timestamp) is ignored.
 */
export function parseDefaultsDomain(text: string): OldPlistDict | null {
  const start = text.indexOf("{");
  if (start < 0) return null;
  const tokens = tokenize(text.slice(start));
  if (!tokens) return null;
  let pos = 0;
  const isPunct = (value: string) => tokens[pos]?.kind === "punct" && tokens[pos]!.value === value;
  const parseValue = (): OldPlistValue | null => {
    const token = tokens[pos];
    if (!token) return null;
    if (token.kind === "string") {
      pos++;
      return token.value;
    }
    if (token.value === "{") {
      pos++;
      const dict: OldPlistDict = {};
      while (!isPunct("}")) {
        const key = tokens[pos];
        if (key?.kind !== "string") return null;
        pos++;
        if (!isPunct("=")) return null;
        pos++;
        const value = parseValue();
        if (value === null || !isPunct(";")) return null;
        pos++;
        dict[key.value] = value;
      }
      pos++;
      return dict;
    }
    if (token.value === "(") {
      pos++;
      const list: OldPlistValue[] = [];
      while (!isPunct(")")) {
        const value = parseValue();
        if (value === null) return null;
        list.push(value);
        if (isPunct(",")) pos++;
        else if (!isPunct(")")) return null;
      }
      pos++;
      return list;
    }
    return null;
  };
  const root = parseValue();
  return root !== null && typeof root === "object" && !Array.isArray(root) ? root : null;
}

/** A scalar of a parsed domain, or undefined when the key is absent or not a scalar. */
export function defaultsString(dict: OldPlistDict, key: string): string | undefined {
  const value = dict[key];
  return typeof value === "string" ? value : undefined;
}

/** Booleans print as 1/0 from binary plists and as YES/NO or True/False from hand-written ones. */
export function defaultsBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (/^(1|yes|true)$/i.test(value)) return true;
  if (/^(0|no|false)$/i.test(value)) return false;
  return undefined;
}

/**
 * `defaults read <domain> <key>`: the value when the key is set, `null` when defaults says it is not (macOS 26
 * prints "The domain/default pair of (…) does not exist", macOS 27 "Could not find key"), undefined when the text
 * is neither.
 */
export function parseDefaultsKey(text: string): string | null | undefined {
  if (/does not exist|could not find key/i.test(text)) return null;
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length === 1 ? lines[0] : undefined;
}

/** RFC 7208 §7.1 macro letters; c, r and t are only allowed in explanation text. */
export type SpfMacroLetter = "s" | "l" | "o" | "d" | "i" | "p" | "h" | "v" | "c" | "r" | "t";

export type MacroToken =
  | { readonly kind: "literal"; readonly text: string }
  /** %%, %_ and %- (RFC 7208 §7.1): they count as a macro-expand for the domain-end rule. */
  | { readonly kind: "escape"; readonly text: string }
  | {
      readonly kind: "macro";
      readonly letter: SpfMacroLetter;
      /** An upper-case letter asks for the value URL-escaped (§7.3). */
      readonly escape: boolean;
      /** Keep this many right-hand parts (null: all). */
      readonly keep: number | null;
      readonly reverse: boolean;
      /** Characters the value is split on; "." when none is given. */
      readonly delimiters: string;
    };

export type MacroParse =
  | { readonly ok: true; readonly tokens: MacroToken[] }
  | { readonly ok: false; readonly problem: string };

/** Where a macro string appears: a domain-spec or unknown modifier, or the explanation text an exp= points to. */
export type MacroPlace = "domain" | "explanation";

const ESCAPES: Readonly<Record<string, string>> = { "%": "%", _: " ", "-": "%20" };
// %{ letter *DIGIT [r] *delimiter }
const MACRO_EXPAND = /^\{([a-z])(\d*)(r?)([.\-+,/_=]*)\}/i;

/**
 * Splits a macro-string (RFC 7208 §7.1) into literals and macros. Literals are visible ASCII except "%"
 * (%x21-24 / %x26-7E); explanation text may also hold spaces. Anything else is a syntax error.
 */
export function parseMacroString(text: string, place: MacroPlace): MacroParse {
  const tokens: MacroToken[] = [];
  const literal = place === "explanation" ? /^[\x20-\x24\x26-\x7e]+/ : /^[\x21-\x24\x26-\x7e]+/;
  let rest = text;
  while (rest.length > 0) {
    const lit = literal.exec(rest);
    if (lit) {
      tokens.push({ kind: "literal", text: lit[0] });
      rest = rest.slice(lit[0].length);
      continue;
    }
    if (!rest.startsWith("%")) {
      return { ok: false, problem: `character U+${rest.codePointAt(0)!.toString(16).padStart(4, "0")} is not allowed` };
    }
    const escaped = ESCAPES[rest[1] ?? ""];
    if (escaped !== undefined) {
      tokens.push({ kind: "escape", text: escaped });
      rest = rest.slice(2);
      continue;
    }
    const m = MACRO_EXPAND.exec(rest.slice(1));
    if (!m) return { ok: false, problem: `"%" must start %{…}, %%, %_ or %- (at "${rest.slice(0, 8)}")` };
    const letter = m[1]!.toLowerCase();
    if (!"slodiphvcrt".includes(letter)) return { ok: false, problem: `unknown macro letter "${m[1]}"` };
    if ("crt".includes(letter) && place !== "explanation") {
      return { ok: false, problem: `macro letter "${m[1]}" is only allowed in explanation text` };
    }
    // §7.3: a digit transformer, when present, must be nonzero.
    if (m[2] !== "" && Number(m[2]) === 0) return { ok: false, problem: `macro "%${m[0]}" keeps zero parts` };
    tokens.push({
      kind: "macro",
      letter: letter as SpfMacroLetter,
      escape: m[1] !== letter,
      keep: m[2] === "" ? null : Number(m[2]),
      reverse: m[3] !== "",
      delimiters: m[4] || ".",
    });
    rest = rest.slice(1 + m[0].length);
  }
  return { ok: true, tokens };
}

// RFC 7208 §7.1 toplabel: alphanumerics with at least one letter, or alphanumerics and inner dashes.
const DOMAIN_END = /\.(?:[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])\.?$/i;

/**
 * Checks a domain-spec (RFC 7208 §7.1: macro-string domain-end, where domain-end is "." toplabel ["."] or a
 * macro-expand). Returns the problem, or null when the spec is valid. The spec is checked as written, before
 * expansion: what a macro expands to is checked when it is used.
 */
export function domainSpecProblem(spec: string): string | null {
  if (spec === "") return "empty domain";
  const parsed = parseMacroString(spec, "domain");
  if (!parsed.ok) return `"${spec}": ${parsed.problem}`;
  const last = parsed.tokens.at(-1)!;
  if (last.kind !== "literal") return null;
  if (!DOMAIN_END.test(last.text)) return `"${spec}" does not end in a valid top-level label`;
  return null;
}

/** The values macros expand to for one check_host() evaluation (§7.2); `p` is looked up only when used. */
export interface MacroValues {
  readonly s: string;
  readonly l: string;
  readonly o: string;
  readonly d: string;
  readonly i: string;
  readonly h: string;
  readonly v: string;
  readonly c: string;
  readonly r: string;
  readonly t: string;
  p(): Promise<string>;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** URL-escapes every byte outside RFC 3986's unreserved set, as upper-case macro letters ask (§7.3). */
function urlEscape(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((b) => {
      const c = String.fromCharCode(b);
      return b < 0x80 && UNRESERVED.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    })
    .join("");
}

/** Expands parsed macro tokens (§7.3): split on delimiters, reverse, keep the right-hand parts, join with ".". */
export async function expandMacros(tokens: readonly MacroToken[], values: MacroValues): Promise<string> {
  let out = "";
  for (const token of tokens) {
    if (token.kind !== "macro") {
      out += token.text;
      continue;
    }
    const value = token.letter === "p" ? await values.p() : values[token.letter];
    const splitter = new RegExp(`[${token.delimiters.replace(/[-\\\]^]/g, "\\$&")}]`);
    let parts = value.split(splitter);
    if (token.reverse) parts = parts.reverse();
    if (token.keep !== null) parts = parts.slice(Math.max(0, parts.length - token.keep));
    const joined = parts.join(".");
    out += token.escape ? urlEscape(joined) : joined;
  }
  return out;
}

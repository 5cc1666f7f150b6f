/** One `name=value` field of an MTA-STS or TLS-RPT record, exactly as written (no spaces around "="). */
export interface RecordField {
  readonly name: string;
  readonly value: string;
}

export type FieldRecordParse =
  | { readonly ok: true; readonly fields: readonly RecordField[] }
  | { readonly ok: false; readonly problem: string };

// RFC 8461 §3.1 sts-extension and RFC 8460 §3 tlsrpt-extension: a name of 1-32 letters, digits, "_", "-" and "."
// starting with a letter or digit; a value of visible characters other than "=" and ";".
const FIELD = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,31})=(.*)$/s;
const EXTENSION_VALUE = /^[\x21-\x3a\x3c\x3e-\x7e]+$/;

/**
 * The version prefix these records are recognised by (RFC 8461 §3.1, RFC 8460 §3): the exact, case-sensitive
 * version, then the field delimiter (*WSP ";"). "v=STSv1" alone or "v=STSv12;" are other records.
 */
export function startsWithVersion(text: string, version: string): boolean {
  return text.startsWith(version) && /^[ \t]*;/.test(text.slice(version.length));
}

/**
 * Splits a record of the shape `version 1*(*WSP ";" *WSP field) [*WSP ";" *WSP]` into its fields and checks each
 * value against the extension syntax, or the syntax given for its name (what named fields mean is the caller's). Trailing delimiters
 * and spaces are accepted, as senders accept them (postfix-mta-sts-resolver's parser); an empty field elsewhere is
 * not. A record without fields parses to none: its required field (id=, rua=) is missing, which the caller says.
 */
export function parseFieldRecord(
  text: string,
  version: string,
  /** Value syntax of named fields whose values differ from an extension's (TLS-RPT's rua= list). */
  valueSyntax: Readonly<Record<string, RegExp>> = {},
): FieldRecordParse {
  if (!startsWithVersion(text, version)) return { ok: false, problem: `the record does not start with "${version};"` };
  const parts = text
    .slice(version.length)
    .split(";")
    .slice(1)
    .map((p) => p.replace(/^[ \t]+|[ \t]+$/g, ""));
  while (parts.length > 0 && parts.at(-1) === "") parts.pop();
  const fields: RecordField[] = [];
  for (const part of parts) {
    const m = FIELD.exec(part);
    if (!m || !(valueSyntax[m[1]!] ?? EXTENSION_VALUE).test(m[2]!)) {
      return { ok: false, problem: `"${part}" is not a name=value field (RFC 8461 §3.1, RFC 8460 §3)` };
    }
    fields.push({ name: m[1]!, value: m[2]! });
  }
  return { ok: true, fields };
}

/** What a sender makes of the TXT records at a policy name: none of the version, several, or the one it parses. */
export type RecordDiscovery<P> =
  | { readonly state: "none" }
  | { readonly state: "multiple"; readonly records: readonly string[] }
  | { readonly state: "record"; readonly raw: string; readonly parsed: P };

/** Keeps the records that start with the version; exactly one is parsed (RFC 8461 §3.1, RFC 8460 §3). */
export function discoverRecord<P>(
  txt: readonly string[],
  version: string,
  parse: (text: string) => P,
): RecordDiscovery<P> {
  const records = txt.filter((t) => startsWithVersion(t, version));
  if (records.length === 0) return { state: "none" };
  if (records.length > 1) return { state: "multiple", records };
  return { state: "record", raw: records[0]!, parsed: parse(records[0]!) };
}

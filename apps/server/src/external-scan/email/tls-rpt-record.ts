import { discoverRecord, parseFieldRecord, type RecordDiscovery } from "./field-record.js";

export type TlsRptRecordParse =
  | { readonly ok: true; readonly rua: readonly string[] }
  | { readonly ok: false; readonly problem: string };

// RFC 8460 §3: reports go to mailto: or https: URIs; commas and "!" inside a URI must be percent-encoded.
const REPORT_URI = /^(mailto:[^@\s,!;]+@[^@\s,!;]+|https:\/\/[^\s,!;]+)$/i;
// tlsrpt-rua = %s"rua=" tlsrpt-uri *(*WSP "," *WSP tlsrpt-uri): URIs of visible characters, commas between them.
const RUA_LIST = /^[\x21-\x2b\x2d-\x3a\x3c-\x7e]+(?:[ \t]*,[ \t]*[\x21-\x2b\x2d-\x3a\x3c-\x7e]+)*$/;

/**
 * Parses a TLS-RPT record (RFC 8460 §3): "v=TLSRPTv1; rua=<uri>[,<uri>…]" with extension fields. rua must appear
 * exactly once (Note 1 of the ABNF) and hold only mailto: or https: URIs, separated by commas with optional spaces.
 */
export function parseTlsRptRecord(text: string): TlsRptRecordParse {
  const parsed = parseFieldRecord(text, "v=TLSRPTv1", { rua: RUA_LIST });
  if (!parsed.ok) return parsed;
  const rua = parsed.fields.filter((f) => f.name === "rua");
  if (rua.length !== 1) return { ok: false, problem: `rua= must appear exactly once (it appears ${rua.length} times)` };
  const uris = rua[0]!.value.split(/[ \t]*,[ \t]*/);
  const bad = uris.filter((u) => !REPORT_URI.test(u));
  if (bad.length > 0) return { ok: false, problem: `${bad.join(", ")}: rua= takes mailto: or https: URIs` };
  return { ok: true, rua: uris };
}

/** True when the record is usable (RFC 8460 §3). */
export function isValidTlsRptRecord(text: string): boolean {
  return parseTlsRptRecord(text).ok;
}

/** The TLS-RPT record among a name's TXT strings, parsed (pure). */
export function discoverTlsRptRecord(txt: readonly string[]): RecordDiscovery<TlsRptRecordParse> {
  return discoverRecord(txt, "v=TLSRPTv1", parseTlsRptRecord);
}

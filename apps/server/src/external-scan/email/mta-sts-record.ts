import { discoverRecord, parseFieldRecord, type RecordDiscovery } from "./field-record.js";

export type MtaStsRecordParse =
  | { readonly ok: true; readonly id: string }
  | { readonly ok: false; readonly problem: string };

/**
 * Parses an MTA-STS TXT record (RFC 8461 §3.1): "v=STSv1; id=<1-32 letters or digits>" and extension fields,
 * case-sensitive, no spaces around "=". The first id= is the policy id (the policy file rule of §3.2, applied to
 * the record as checkdmarc does).
 */
export function parseMtaStsRecord(text: string): MtaStsRecordParse {
  const parsed = parseFieldRecord(text, "v=STSv1");
  if (!parsed.ok) return parsed;
  const id = parsed.fields.find((f) => f.name === "id")?.value;
  if (id === undefined || !/^[A-Za-z0-9]{1,32}$/.test(id)) {
    return { ok: false, problem: "id= must be 1 to 32 letters or digits" };
  }
  return { ok: true, id };
}

/** The MTA-STS record among a name's TXT strings, parsed (pure). */
export function discoverMtaStsRecord(txt: readonly string[]): RecordDiscovery<MtaStsRecordParse> {
  return discoverRecord(txt, "v=STSv1", parseMtaStsRecord);
}

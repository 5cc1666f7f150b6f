import type { SpfDns } from "../email/spf-eval.js";
import type { DnsAnswer, MxRecord } from "../io/types.js";

/**
 * One name's records in the openspf test-suite format (rfc7208-tests.yml `zonedata`): `TIMEOUT`, or a map of one
 * type to its data (`SPF`/`TXT`: a string or a list of strings joined without separator, `NONE` for no record;
 * `A`, `AAAA`, `PTR`, `CNAME`: a string; `MX`: [preference, exchange]).
 */
export type ZoneEntry = "TIMEOUT" | Readonly<Record<string, unknown>>;
export type ZoneData = Readonly<Record<string, readonly ZoneEntry[]>>;

type RecordType = "TXT" | "A" | "AAAA" | "MX" | "PTR" | "CNAME";
type Item = { readonly type: RecordType | "SPF"; readonly value: unknown } | "TIMEOUT";

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, "");

/** An entry's records as typed items (SPF records are kept apart: they stand in for TXT when a name has none). */
function items(entries: readonly ZoneEntry[]): Item[] {
  return entries.flatMap((entry): Item[] => {
    if (entry === "TIMEOUT") return ["TIMEOUT"];
    return Object.entries(entry).map(([type, value]) => ({ type: type as RecordType | "SPF", value }));
  });
}

function txtValue(value: unknown): string | null {
  if (value === "NONE") return null;
  return Array.isArray(value) ? value.map(String).join("") : String(value);
}

/**
 * The answer an authoritative server gives as the suite's reference driver (pyspf's testspf.py) models it: the
 * records of the asked type in order; a TIMEOUT entry before any of them times the query out; TXT records stand in
 * for the retired SPF type unless the name lists TXT records of its own (RFC 7208 §3.1, §14.1); a name that is not
 * in the zone is NXDOMAIN, one without records of the type NODATA. CNAMEs are followed, and a CNAME loop fails.
 */
function answer(zone: ReadonlyMap<string, Item[]>, name: string, type: RecordType, hops = 0): DnsAnswer<unknown[]> {
  const list = zone.get(normalize(name));
  if (list === undefined) return { ok: false, code: "nxdomain" };
  const cname = list.find((i) => i !== "TIMEOUT" && i.type === "CNAME");
  if (cname && cname !== "TIMEOUT" && type !== "CNAME") {
    if (hops >= 8) return { ok: false, code: "servfail", detail: "CNAME loop" };
    return answer(zone, String(cname.value), type, hops + 1);
  }
  const explicitTxt = list.some((i) => i !== "TIMEOUT" && i.type === "TXT");
  const ordered =
    type === "TXT" && !explicitTxt
      ? [...list, ...list.flatMap((i) => (i !== "TIMEOUT" && i.type === "SPF" ? [{ ...i, type: "TXT" as const }] : []))]
      : list;
  const records: unknown[] = [];
  for (const item of ordered) {
    if (item === "TIMEOUT") {
      if (records.length === 0) return { ok: false, code: "timeout" };
      break;
    }
    if (item.type !== type) continue;
    if (type === "TXT") {
      const text = txtValue(item.value);
      if (text !== null) records.push(text);
    } else {
      records.push(item.value);
    }
  }
  return records.length > 0 ? { ok: true, records } : { ok: false, code: "nodata" };
}

/** An in-memory SpfDns over one suite document's zone data. */
export function spfZoneDns(zonedata: ZoneData): SpfDns {
  const zone = new Map(Object.entries(zonedata).map(([name, entries]) => [normalize(name), items(entries)]));
  const strings = (name: string, type: RecordType) => answer(zone, name, type) as DnsAnswer<string[]>;
  return {
    txt: async (name) => strings(name, "TXT"),
    a: async (name) => strings(name, "A"),
    aaaa: async (name) => strings(name, "AAAA"),
    ptr: async (name) => strings(name, "PTR"),
    mx: async (name) => {
      const raw = answer(zone, name, "MX");
      if (!raw.ok) return raw;
      const records: MxRecord[] = raw.records.map((r) => {
        const [priority, exchange] = r as [number, string];
        return { priority, exchange: normalize(exchange) };
      });
      return { ok: true, records };
    },
  };
}

/** One resource record of a sample zone (names are absolute, lower case, without the trailing dot). */
export type ZoneRecord =
  | { readonly name: string; readonly type: "A" | "AAAA"; readonly address: string }
  | { readonly name: string; readonly type: "MX"; readonly exchange: string; readonly priority: number }
  | { readonly name: string; readonly type: "TXT"; readonly text: string }
  | { readonly name: string; readonly type: "CNAME"; readonly target: string };

export interface Zone {
  /** The zone apexes this server is authoritative for (e.g. "lakeside-family.test"). */
  readonly origins: readonly string[];
  readonly records: readonly ZoneRecord[];
}

export type ZoneAnswer =
  | { readonly rcode: "NOERROR"; readonly answers: readonly ZoneRecord[] }
  | { readonly rcode: "NXDOMAIN" }
  /** Not our zone: an authoritative server refuses rather than recursing. */
  | { readonly rcode: "REFUSED" };

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, "");
const MAX_CNAME_CHAIN = 8;

/**
 * An authoritative answer (pure): the records of the asked type, following CNAMEs inside the zone; NOERROR
 * with no records (NODATA) for a name that exists with other types or has names below it (an empty
 * non-terminal, RFC 8020 — what `_domainkey.<domain>` is); NXDOMAIN otherwise.
 */
export function answerQuery(zone: Zone, qname: string, qtype: string): ZoneAnswer {
  let name = normalize(qname);
  const inZone = (n: string) => zone.origins.some((o) => n === o || n.endsWith(`.${o}`));
  if (!inZone(name)) return { rcode: "REFUSED" };
  const answers: ZoneRecord[] = [];
  for (let hop = 0; hop < MAX_CNAME_CHAIN; hop++) {
    const atName = zone.records.filter((r) => r.name === name);
    const cname = atName.find((r) => r.type === "CNAME");
    if (cname && cname.type === "CNAME" && qtype !== "CNAME") {
      answers.push(cname);
      name = normalize(cname.target);
      if (!inZone(name)) return { rcode: "NOERROR", answers };
      continue;
    }
    const matching = atName.filter((r) => r.type === qtype);
    if (matching.length > 0 || atName.length > 0 || answers.length > 0) {
      return { rcode: "NOERROR", answers: [...answers, ...matching] };
    }
    const emptyNonTerminal = zone.records.some((r) => r.name.endsWith(`.${name}`));
    return emptyNonTerminal ? { rcode: "NOERROR", answers: [] } : { rcode: "NXDOMAIN" };
  }
  return { rcode: "NOERROR", answers };
}

/** Splits a TXT value into character-strings of at most 255 bytes, as DNS providers publish long DKIM keys. */
export function txtCharacterStrings(text: string): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += 255) chunks.push(text.slice(i, i + 255));
  return chunks.length > 0 ? chunks : [""];
}

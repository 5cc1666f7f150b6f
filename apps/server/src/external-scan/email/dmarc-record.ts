import { parseTagList } from "./tag-list.js";

export type DmarcPolicy = "none" | "quarantine" | "reject";

export interface DmarcRecord {
  readonly p: DmarcPolicy;
  /** Subdomain policy; null means "same as p". */
  readonly sp: DmarcPolicy | null;
  /** Share of failing mail the policy applies to (RFC 7489 pct, default 100). */
  readonly pct: number;
  /** Aggregate report destinations. */
  readonly rua: readonly string[];
  readonly ruf: readonly string[];
  readonly adkim: "r" | "s";
  readonly aspf: "r" | "s";
  /** DMARCbis `t=y`: the domain owner says the policy is only being tested. */
  readonly testing: boolean;
}

/**
 * A DMARC record as receivers apply it. `problems` are the errors that made receivers fall back to p=none
 * (RFC 7489 §6.6.3 step 6: no valid p, or an invalid sp, but a valid rua); `warnings` are errors in other tags,
 * which receivers discard in favour of the defaults (§6.3).
 */
export type DmarcParseResult =
  | {
      readonly ok: true;
      readonly record: DmarcRecord;
      readonly warnings: readonly string[];
      readonly problems: readonly string[];
      /** True when p=none is applied because p (or sp) was not valid. */
      readonly fallback: boolean;
    }
  | { readonly ok: false; readonly problems: readonly string[] };

const POLICIES: readonly string[] = ["none", "quarantine", "reject"];

/**
 * The TXT strings at _dmarc.<domain> that are DMARC records (RFC 7489 §6.6.3 step 3): they start with the v tag,
 * whose name is case-insensitive but whose value is exactly "DMARC1" (ABNF %x44.4d.41.52.43.31), with optional
 * spaces or tabs around "=" and before the ";". "v=dmarc1" and " v=DMARC1" are other records.
 */
export function selectDmarcRecords(txt: readonly string[]): string[] {
  return txt.filter((t) => /^[vV][ \t]*=[ \t]*DMARC1[ \t]*(;|$)/.test(t));
}

/** What receivers do with the TXT records at _dmarc.<domain> (§6.6.3): no record, several, or the one they parse. */
export type DmarcDiscovery =
  | { readonly state: "none" }
  | { readonly state: "multiple"; readonly records: readonly string[] }
  | { readonly state: "record"; readonly raw: string; readonly parsed: DmarcParseResult };

/** Finds and parses the DMARC policy among a name's TXT strings (pure). */
export function discoverDmarcPolicy(txt: readonly string[]): DmarcDiscovery {
  const records = selectDmarcRecords(txt);
  if (records.length === 0) return { state: "none" };
  if (records.length > 1) return { state: "multiple", records };
  return { state: "record", raw: records[0]!, parsed: parseDmarcRecord(records[0]!) };
}

// RFC 7489 §6.2 DMARC URI: a URI with an optional "!" size limit (digits and an optional k, m, g or t).
const REPORT_URI = /^[a-z][a-z0-9+.-]*:[^\s,!]+(![0-9]+[kmgt]?)?$/i;
const MAILTO_OR_HTTPS = /^(mailto:[^@\s]+@[^@\s!]+|https:\/\/\S+?)(![0-9]+[kmgt]?)?$/i;
// §6.3 fo: "0", "1", "d" or "s", colon-separated.
const FO = /^[01ds](?:[ \t]*:[ \t]*[01ds])*$/i;

/**
 * Parses a DMARC record (RFC 7489 §6.3, plus DMARCbis t=, np= and psd=). Tag names are case-insensitive and may
 * have spaces around "="; unknown tags are ignored. Only v and p decide whether the record is usable.
 */
export function parseDmarcRecord(text: string): DmarcParseResult {
  const warnings: string[] = [];
  const problems: string[] = [];
  const list = parseTagList(text);
  const head = list.tags.find((t) => t.position === 0);
  if (head?.name !== "v" || head.value !== "DMARC1") {
    return { ok: false, problems: ["v=DMARC1 must come first"] };
  }
  for (const part of list.malformed) warnings.push(`"${part}" is not a tag=value pair and is ignored`);
  const values = new Map<string, string[]>();
  for (const { name, value } of list.tags) values.set(name, [...(values.get(name) ?? []), value]);
  const tag = (name: string): string | undefined => {
    const all = values.get(name);
    if (all && all.length > 1) warnings.push(`tag ${name} appears ${all.length} times; the first is used`);
    return all?.[0];
  };

  // A repeated policy tag with different values gives receivers no policy to apply.
  const policy = (name: "p" | "sp"): DmarcPolicy | null | undefined => {
    const all = (values.get(name) ?? []).map((v) => v.toLowerCase());
    if (all.length === 0) return undefined;
    if (new Set(all).size > 1) {
      problems.push(`${name}= is given ${all.length} times with different values (${all.join(", ")})`);
      return null;
    }
    if (POLICIES.includes(all[0]!)) return all[0] as DmarcPolicy;
    problems.push(`${name}=${all[0]} is not none, quarantine or reject`);
    return null;
  };
  const p = policy("p");
  if (p === undefined) problems.push("the required p= tag is missing");
  else if (list.tags.findIndex((t) => t.name === "p") !== 1) warnings.push("p= does not directly follow v=DMARC1");
  const sp = policy("sp");

  const uris = (name: string): string[] => {
    const parts = (tag(name) ?? "")
      .split(",")
      .map((u) => u.trim())
      .filter((u) => u.length > 0);
    for (const u of parts) {
      if (!REPORT_URI.test(u)) warnings.push(`${name} destination "${u}" is not a URI`);
      else if (!MAILTO_OR_HTTPS.test(u)) warnings.push(`${name} destination "${u}" is not a mailto: address`);
    }
    return parts.filter((u) => REPORT_URI.test(u));
  };
  const rua = uris("rua");
  const ruf = uris("ruf");

  let pct = 100;
  const pctText = tag("pct");
  if (pctText !== undefined) {
    if (/^\d{1,3}$/.test(pctText) && Number(pctText) <= 100) pct = Number(pctText);
    else warnings.push(`pct=${pctText} is not a whole number from 0 to 100; 100 applies`);
  }
  const alignment = (name: string): "r" | "s" => {
    const value = tag(name)?.toLowerCase() ?? "r";
    if (value !== "r" && value !== "s") warnings.push(`${name}=${value} is not r or s; relaxed is assumed`);
    return value === "s" ? "s" : "r";
  };
  const adkim = alignment("adkim");
  const aspf = alignment("aspf");
  const fo = tag("fo");
  if (fo !== undefined && !FO.test(fo)) warnings.push(`fo=${fo} is not a colon-separated list of 0, 1, d and s`);
  const choice = (name: string, allowed: readonly string[]): string | undefined => {
    const value = tag(name)?.toLowerCase();
    if (value !== undefined && !allowed.includes(value))
      warnings.push(`${name}=${value} is not ${allowed.join(" or ")}`);
    return value;
  };
  const testing = choice("t", ["y", "n"]) === "y";
  choice("np", POLICIES);
  choice("psd", ["y", "n", "u"]);

  if (problems.length > 0) {
    // §6.6.3 step 6: without a valid p (or with an invalid sp) the record counts as p=none if rua has a valid URI.
    if (rua.length === 0) return { ok: false, problems };
    const record: DmarcRecord = { p: "none", sp: null, pct: 100, rua, ruf, adkim: "r", aspf: "r", testing: false };
    return { ok: true, record, warnings, problems, fallback: true };
  }
  const record: DmarcRecord = { p: p!, sp: sp ?? null, pct, rua, ruf, adkim, aspf, testing };
  return { ok: true, record, warnings, problems, fallback: false };
}

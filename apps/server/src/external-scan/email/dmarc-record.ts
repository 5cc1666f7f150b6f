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

export type DmarcParseResult =
  | { readonly ok: true; readonly record: DmarcRecord; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly problems: readonly string[] };

const POLICIES: readonly string[] = ["none", "quarantine", "reject"];

/** The TXT strings at _dmarc.<domain> that are DMARC records (first tag v=DMARC1, RFC 7489 §6.6.3). */
export function selectDmarcRecords(txt: readonly string[]): string[] {
  return txt.filter((t) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(t.trim()));
}

/** Parses a DMARC record (RFC 7489 §6.3 tags plus DMARCbis t=). Problems make it unusable; warnings do not. */
export function parseDmarcRecord(text: string): DmarcParseResult {
  const tags = new Map<string, string>();
  const problems: string[] = [];
  const warnings: string[] = [];
  const list = parseTagList(text);
  const head = list.tags.find((t) => t.position === 0);
  if (head && (head.name !== "v" || head.value.toUpperCase() !== "DMARC1")) problems.push("v=DMARC1 must come first");
  for (const part of list.malformed) problems.push(`"${part}" is not a tag=value pair`);
  for (const { name, value } of list.tags) {
    if (tags.has(name)) warnings.push(`tag ${name} appears more than once; the first is used`);
    else tags.set(name, value);
  }

  const policy = (tag: string): DmarcPolicy | null | undefined => {
    const value = tags.get(tag)?.toLowerCase();
    if (value === undefined) return undefined;
    if (POLICIES.includes(value)) return value as DmarcPolicy;
    problems.push(`${tag}=${value} is not none, quarantine or reject`);
    return null;
  };
  const p = policy("p");
  if (p === undefined) problems.push("the required p= tag is missing");
  const sp = policy("sp");

  let pct = 100;
  const pctText = tags.get("pct");
  if (pctText !== undefined) {
    if (/^\d{1,3}$/.test(pctText) && Number(pctText) <= 100) pct = Number(pctText);
    else problems.push(`pct=${pctText} is not a whole number from 0 to 100`);
  }
  const uris = (tag: string): string[] => {
    const list = (tags.get(tag) ?? "")
      .split(",")
      .map((u) => u.trim())
      .filter((u) => u.length > 0);
    for (const u of list) {
      // RFC 7489 §6.2: reporting URIs are mailto: (https: is accepted by some receivers); an optional !size suffix.
      if (!/^(mailto:[^@\s]+@[^@\s!]+|https:\/\/\S+?)(![0-9]+[kmgt]?)?$/i.test(u)) {
        warnings.push(`${tag} destination "${u}" is not a mailto: address`);
      }
    }
    return list;
  };
  const alignment = (tag: string): "r" | "s" => {
    const value = tags.get(tag)?.toLowerCase() ?? "r";
    if (value !== "r" && value !== "s") warnings.push(`${tag}=${value} is not r or s; relaxed is assumed`);
    return value === "s" ? "s" : "r";
  };
  const record: DmarcRecord = {
    p: p ?? "none",
    sp: sp ?? null,
    pct,
    rua: uris("rua"),
    ruf: uris("ruf"),
    adkim: alignment("adkim"),
    aspf: alignment("aspf"),
    testing: tags.get("t")?.toLowerCase() === "y",
  };
  return problems.length > 0 ? { ok: false, problems } : { ok: true, record, warnings };
}

import { parseIpv4, parseIpv6 } from "./spf-ip.js";
import { domainSpecProblem, parseMacroString } from "./spf-macro.js";

/** RFC 7208 §4.6.2 qualifiers: pass, fail, softfail, neutral. */
export type SpfQualifier = "+" | "-" | "~" | "?";

/** A mechanism as written. Domain-specs keep their case: macro letters are case-sensitive (§7.3). */
export type SpfMechanism =
  | { readonly kind: "all"; readonly qualifier: SpfQualifier }
  | { readonly kind: "include" | "exists"; readonly qualifier: SpfQualifier; readonly domain: string }
  | { readonly kind: "ptr"; readonly qualifier: SpfQualifier; readonly domain: string | null }
  | {
      readonly kind: "a" | "mx";
      readonly qualifier: SpfQualifier;
      readonly domain: string | null;
      /** ip4-cidr-length and ip6-cidr-length; null means the whole address (/32, /128). */
      readonly cidr4: number | null;
      readonly cidr6: number | null;
    }
  | {
      readonly kind: "ip4" | "ip6";
      readonly qualifier: SpfQualifier;
      /** As written, e.g. "192.0.2.0/24". */
      readonly network: string;
      readonly address: string;
      readonly prefix: number | null;
    };

export interface SpfRecord {
  readonly mechanisms: readonly SpfMechanism[];
  /** The redirect= and exp= domain-specs as written. */
  readonly redirect: string | null;
  readonly exp: string | null;
}

export type SpfParseResult =
  | { readonly ok: true; readonly record: SpfRecord }
  | { readonly ok: false; readonly problems: readonly string[] };

/** Mechanisms and modifiers that cost a DNS lookup (RFC 7208 §4.6.4). */
export const SPF_LOOKUP_MECHANISMS: ReadonlySet<SpfMechanism["kind"]> = new Set([
  "include",
  "a",
  "mx",
  "ptr",
  "exists",
]);

/**
 * The TXT strings that are SPF records (RFC 7208 §4.5): exactly "v=spf1" (any case) at the very start, followed by
 * a space or the end. Leading spaces, tabs or "v=spf10" are other records.
 */
export function selectSpfRecords(txt: readonly string[]): string[] {
  return txt.filter((t) => /^v=spf1(?: |$)/i.test(t));
}

const VERSION = /^v=spf1(?= |$)/i;
// §4.6.1: name "=" value, where name = ALPHA *( ALPHA / DIGIT / "-" / "_" / "." ); anything else is a directive.
const MODIFIER = /^([a-z][a-z0-9_.-]*)=(.*)$/is;
const DIRECTIVE = /^([+\-~?]?)([a-z0-9]+)(.*)$/is;
// a and mx: [ ":" domain-spec ] [ "/" ip4-cidr ] [ "//" ip6-cidr ]. The domain-spec may itself hold "/" and ":",
// so the shortest domain that leaves only CIDR lengths is taken (a domain-spec cannot end in "/digits").
const A_OR_MX_ARGS = /^(?::(.*?))?(?:\/(\d+))?(?:\/\/(\d+))?$/s;
const IP_ARGS = /^:([^/]*)(?:\/(.*))?$/s;
// §5.6: ip4-cidr-length = "/" ("0" / %x31-39 0*1DIGIT), ip6-cidr-length = "/" ("0" / %x31-39 0*2DIGIT).
const CIDR_SYNTAX = { 4: /^(?:0|[1-9]\d?)$/, 6: /^(?:0|[1-9]\d{0,2})$/ } as const;
const CIDR_MAX = { 4: 32, 6: 128 } as const;

function cidrProblem(cidr: string | undefined, family: 4 | 6): string | null {
  if (cidr === undefined) return null;
  if (!CIDR_SYNTAX[family].test(cidr) || Number(cidr) > CIDR_MAX[family]) {
    return `invalid IPv${family} prefix length /${cidr}`;
  }
  return null;
}

/**
 * Parses one SPF record (RFC 7208 §4.6, §12 ABNF). Terms are separated by spaces only; every syntax problem is
 * listed, and any problem makes the whole record a permerror (§4.6: errors anywhere are detected before evaluation).
 */
export function parseSpfRecord(text: string): SpfParseResult {
  if (!VERSION.test(text)) return { ok: false, problems: ["record does not start with v=spf1"] };
  const terms = text
    .slice("v=spf1".length)
    .split(" ")
    .filter((t) => t !== "");
  const problems: string[] = [];
  const mechanisms: SpfMechanism[] = [];
  const modifiers = { redirect: null as string | null, exp: null as string | null };

  for (const term of terms) {
    const control = /[^\x21-\x7e]/.exec(term);
    if (control) {
      const code = control[0].codePointAt(0)!.toString(16).padStart(4, "0");
      problems.push(`${JSON.stringify(term)} holds U+${code}; terms are separated by spaces only and are ASCII`);
      continue;
    }
    const modifier = MODIFIER.exec(term);
    if (modifier) {
      const problem = modifierProblem(modifier[1]!.toLowerCase(), modifier[2]!, modifiers);
      if (problem) problems.push(problem);
      continue;
    }
    const d = DIRECTIVE.exec(term);
    const mechanism = d ? parseMechanism((d[1] || "+") as SpfQualifier, d[2]!.toLowerCase(), d[3]!) : null;
    if (!mechanism) problems.push(`unrecognised term "${term}"`);
    else if ("problem" in mechanism) problems.push(`"${term}": ${mechanism.problem}`);
    else mechanisms.push(mechanism);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, record: { mechanisms, ...modifiers } };
}

/** Checks one modifier and records redirect= and exp=; unknown modifiers must still hold a valid macro-string. */
function modifierProblem(
  name: string,
  value: string,
  modifiers: { redirect: string | null; exp: string | null },
): string | null {
  if (name === "redirect" || name === "exp") {
    // §6: each may appear at most once.
    if (modifiers[name] !== null) return `${name}= appears more than once`;
    modifiers[name] = value;
    const problem = domainSpecProblem(value);
    return problem ? `${name}=: ${problem}` : null;
  }
  // §6 and §12: unknown-modifier = name "=" macro-string; the modifier is ignored but its syntax is not.
  const parsed = parseMacroString(value, "domain");
  return parsed.ok ? null : `${name}=: ${parsed.problem}`;
}

function parseMechanism(
  qualifier: SpfQualifier,
  kind: string,
  rest: string,
): SpfMechanism | { problem: string } | null {
  switch (kind) {
    case "all":
      return rest === "" ? { kind, qualifier } : { problem: "all takes no argument" };
    case "include":
    case "exists": {
      if (!rest.startsWith(":")) return { problem: `${kind} needs ":" and a domain` };
      const domain = rest.slice(1);
      const problem = domainSpecProblem(domain);
      return problem ? { problem } : { kind, qualifier, domain };
    }
    case "ptr": {
      if (rest === "") return { kind, qualifier, domain: null };
      if (!rest.startsWith(":")) return { problem: "ptr takes only a domain" };
      const problem = domainSpecProblem(rest.slice(1));
      return problem ? { problem } : { kind, qualifier, domain: rest.slice(1) };
    }
    case "a":
    case "mx": {
      const args = A_OR_MX_ARGS.exec(rest);
      if (!args) return { problem: `malformed ${kind} mechanism` };
      const [, domain, v4, v6] = args;
      const problem =
        (domain === undefined ? null : domainSpecProblem(domain)) ?? cidrProblem(v4, 4) ?? cidrProblem(v6, 6);
      if (problem) return { problem };
      return {
        kind,
        qualifier,
        domain: domain ?? null,
        cidr4: v4 === undefined ? null : Number(v4),
        cidr6: v6 === undefined ? null : Number(v6),
      };
    }
    case "ip4":
    case "ip6": {
      const args = IP_ARGS.exec(rest);
      if (!args) return { problem: `${kind} needs ":" and a network` };
      const [, address = "", prefix] = args;
      const family = kind === "ip4" ? 4 : 6;
      if ((family === 4 ? parseIpv4(address) : parseIpv6(address)) === null) {
        return { problem: `"${address}" is not an IPv${family} address` };
      }
      const problem = cidrProblem(prefix, family);
      if (problem) return { problem };
      return { kind, qualifier, network: rest.slice(1), address, prefix: prefix === undefined ? null : Number(prefix) };
    }
    default:
      return { problem: `unknown mechanism "${kind}"` };
  }
}

/** Lookups this record costs by itself (its includes and redirect target are counted by the caller). */
export function ownLookupCount(record: SpfRecord): number {
  const mechanisms = record.mechanisms.filter((m) => SPF_LOOKUP_MECHANISMS.has(m.kind)).length;
  return mechanisms + (record.redirect !== null && !hasAll(record) ? 1 : 0);
}

/** RFC 7208 §6.1: redirect= is ignored when the record has an all mechanism. */
export function hasAll(record: SpfRecord): boolean {
  return record.mechanisms.some((m) => m.kind === "all");
}

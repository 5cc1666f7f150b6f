import { isIP } from "node:net";

/** RFC 7208 §4.6.2 qualifiers: pass, fail, softfail, neutral. */
export type SpfQualifier = "+" | "-" | "~" | "?";

export type SpfMechanism =
  | { readonly kind: "all"; readonly qualifier: SpfQualifier }
  | { readonly kind: "include" | "exists"; readonly qualifier: SpfQualifier; readonly domain: string }
  | { readonly kind: "a" | "mx" | "ptr"; readonly qualifier: SpfQualifier; readonly domain: string | null }
  | { readonly kind: "ip4" | "ip6"; readonly qualifier: SpfQualifier; readonly network: string };

export interface SpfRecord {
  readonly mechanisms: readonly SpfMechanism[];
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

/** The TXT strings that are SPF records: `v=spf1` alone or followed by a space (RFC 7208 §4.5). */
export function selectSpfRecords(txt: readonly string[]): string[] {
  return txt.filter((t) => /^v=spf1( |$)/i.test(t.trim()));
}

// RFC 7208 §7.1 macro: %{letter [digits] [r] [delimiters]} or the escapes %%, %_ and %-.
const MACRO = /%(\{[slodiphcrtv]\d*r?[.\-+,/_=]*\}|[%_-])/gi;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;

/** A domain-spec: a domain name, or a macro string (not expanded: it depends on the message). */
function domainSpecProblem(spec: string): string | null {
  if (spec.length === 0) return "empty domain";
  if (spec.includes("%")) {
    const rest = spec.replace(MACRO, "");
    return rest.includes("%") ? `invalid macro in "${spec}"` : null;
  }
  const labels = spec.replace(/\.$/, "").split(".");
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return `"${spec}" is not a domain name`;
  // RFC 7208 §7.1 toplabel: alphanumeric with at least one letter.
  if (/^\d+$/.test(labels.at(-1)!)) return `"${spec}" ends in a numeric label`;
  return null;
}

function cidrProblem(cidr: string | undefined, max: number): string | null {
  if (cidr === undefined) return null;
  if (!/^\d{1,3}$/.test(cidr) || Number(cidr) > max) return `invalid prefix length /${cidr}`;
  return null;
}

const MECHANISM = /^([+\-~?]?)([a-z0-9]+)(.*)$/i;
const MODIFIER = /^([a-z][a-z0-9_.-]*)=(.*)$/i;
// a and mx take an optional domain and an optional dual CIDR length: a, a:example.com, a/24, mx:example.com/24//64.
const A_OR_MX_ARGS = /^(?::([^/]+))?(?:\/(\d+))?(?:\/\/(\d+))?$/;

/** Parses one SPF record (RFC 7208 §4.6, §12). Every syntax problem is listed; any problem is a permerror. */
export function parseSpfRecord(text: string): SpfParseResult {
  const terms = text.trim().split(/\s+/);
  const problems: string[] = [];
  if (!/^v=spf1$/i.test(terms[0] ?? "")) return { ok: false, problems: ["record does not start with v=spf1"] };
  const mechanisms: SpfMechanism[] = [];
  let redirect: string | null = null;
  let exp: string | null = null;

  for (const term of terms.slice(1)) {
    const modifier = MODIFIER.exec(term);
    if (modifier) {
      const name = modifier[1]!.toLowerCase();
      const value = modifier[2]!;
      if (name === "redirect" || name === "exp") {
        if ((name === "redirect" ? redirect : exp) !== null) problems.push(`${name}= appears more than once`);
        const problem = domainSpecProblem(value);
        if (problem) problems.push(`${name}=: ${problem}`);
        if (name === "redirect") redirect = value.toLowerCase();
        else exp = value.toLowerCase();
      }
      // Unknown modifiers are allowed and ignored (RFC 7208 §6).
      continue;
    }
    const m = MECHANISM.exec(term);
    const mechanism = m ? parseMechanism((m[1] || "+") as SpfQualifier, m[2]!.toLowerCase(), m[3]!) : null;
    if (!mechanism) {
      problems.push(`unrecognised term "${term}"`);
    } else if ("problem" in mechanism) {
      problems.push(`"${term}": ${mechanism.problem}`);
    } else {
      mechanisms.push(mechanism);
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, record: { mechanisms, redirect, exp } };
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
      if (!rest.startsWith(":")) return { problem: `${kind} needs a domain` };
      const domain = rest.slice(1);
      const problem = domainSpecProblem(domain);
      return problem ? { problem } : { kind, qualifier, domain: domain.toLowerCase() };
    }
    case "ptr": {
      if (rest === "") return { kind, qualifier, domain: null };
      const problem = rest.startsWith(":") ? domainSpecProblem(rest.slice(1)) : "unexpected text after ptr";
      return problem ? { problem } : { kind, qualifier, domain: rest.slice(1).toLowerCase() };
    }
    case "a":
    case "mx": {
      const args = A_OR_MX_ARGS.exec(rest);
      if (!args) return { problem: `malformed ${kind} mechanism` };
      const [, domain, v4, v6] = args;
      const problem =
        (domain === undefined ? null : domainSpecProblem(domain)) ?? cidrProblem(v4, 32) ?? cidrProblem(v6, 128);
      return problem ? { problem } : { kind, qualifier, domain: domain?.toLowerCase() ?? null };
    }
    case "ip4":
    case "ip6": {
      if (!rest.startsWith(":")) return { problem: `${kind} needs a network` };
      const [network = "", prefix, extra] = rest.slice(1).split("/");
      const family = kind === "ip4" ? 4 : 6;
      if (isIP(network) !== family || extra !== undefined) return { problem: `not an IPv${family} network` };
      const problem = cidrProblem(prefix, family === 4 ? 32 : 128);
      return problem ? { problem } : { kind, qualifier, network: rest.slice(1) };
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

import type { DnsAnswer, MxRecord } from "../io/types.js";
import {
  inNetwork,
  macroIp,
  parseClientIp,
  parseIpv4,
  parseIpv6,
  readableIp,
  reverseName,
  type SpfIp,
} from "./spf-ip.js";
import { expandMacros, type MacroValues, parseMacroString } from "./spf-macro.js";
import { dnsName, isEvaluableDomain, truncateLeft } from "./spf-names.js";
import { hasAll, parseSpfRecord, type SpfMechanism, type SpfQualifier, selectSpfRecords } from "./spf-record.js";

/** RFC 7208 §2.6 results of check_host(). */
export type SpfResult = "pass" | "fail" | "softfail" | "neutral" | "none" | "permerror" | "temperror";

/** The DNS queries check_host() makes; names are asked as given (the resolver folds case). */
export interface SpfDns {
  txt(name: string): Promise<DnsAnswer<string[]>>;
  a(name: string): Promise<DnsAnswer<string[]>>;
  aaaa(name: string): Promise<DnsAnswer<string[]>>;
  mx(name: string): Promise<DnsAnswer<MxRecord[]>>;
  ptr(name: string): Promise<DnsAnswer<string[]>>;
}

export interface CheckHostInput {
  /** The SMTP client's address. */
  readonly ip: string;
  /** The domain whose policy is checked (the MAIL FROM domain, or the HELO name). */
  readonly domain: string;
  /** The MAIL FROM address (postmaster@helo when MAIL FROM is empty). */
  readonly sender: string;
  readonly helo: string;
  /** The checking host's name for %{r}; "unknown" when not given (§7.3). */
  readonly receiver?: string;
  /** The clock for %{t}. */
  readonly now?: Date;
}

export interface CheckHostOutcome {
  readonly result: SpfResult;
  /** The explanation (exp=) for a fail, null when there is none or it could not be used (§6.2). */
  readonly explanation: string | null;
  /** Why the result is permerror or temperror. */
  readonly reason?: string;
}

/** §4.6.4: at most 10 DNS-querying terms, at most 2 void lookups, at most 10 MX or PTR names per term. */
export const SPF_LIMITS = { lookups: 10, voidLookups: 2, namesPerTerm: 10 } as const;

const QUALIFIER_RESULT: Record<SpfQualifier, SpfResult> = { "+": "pass", "-": "fail", "~": "softfail", "?": "neutral" };

/** Ends evaluation with permerror or temperror, whatever depth of include or redirect it happens at. */
class SpfAbort extends Error {
  constructor(
    readonly code: "permerror" | "temperror",
    readonly reason: string,
  ) {
    super(reason);
  }
}

const isAbsent = (answer: DnsAnswer<unknown>) => !answer.ok && (answer.code === "nxdomain" || answer.code === "nodata");

/**
 * RFC 7208 check_host(): the SPF result for mail from `input.sender` sent by `input.ip`, evaluated over `dns`
 * (§4–§7: record selection, mechanisms, redirect and exp modifiers, macros, processing limits). Pure apart from
 * the injected DNS; SPF failures are results (permerror, temperror), and only a throwing SpfDns makes it throw.
 */
export async function checkHost(input: CheckHostInput, dns: SpfDns): Promise<CheckHostOutcome> {
  const ip = parseClientIp(input.ip);
  if (!ip) return { result: "permerror", explanation: null, reason: `"${input.ip}" is not an IP address` };
  const evaluation = new Evaluation(input, ip, dns);
  try {
    return await evaluation.check(input.domain, true);
  } catch (error) {
    if (error instanceof SpfAbort) return { result: error.code, explanation: null, reason: error.reason };
    throw error;
  }
}

/** One check_host() call with its include/redirect recursion and the counters they share. */
class Evaluation {
  private lookups = 0;
  private voids = 0;
  private validated: Promise<string[]> | undefined;
  private readonly local: string;
  private readonly senderDomain: string;

  constructor(
    private readonly input: CheckHostInput,
    private readonly ip: SpfIp,
    private readonly dns: SpfDns,
  ) {
    const at = input.sender.lastIndexOf("@");
    this.local = at < 0 ? "postmaster" : input.sender.slice(0, at) || "postmaster";
    this.senderDomain = at < 0 ? input.sender : input.sender.slice(at + 1);
  }

  /** check_host() for `domain`; `explain` is false inside include, whose exp= is never used (§6.2). */
  async check(domain: string, explain: boolean): Promise<CheckHostOutcome> {
    if (!isEvaluableDomain(domain)) return { result: "none", explanation: null };
    const answer = await this.dns.txt(dnsName(domain)!);
    if (!answer.ok) {
      if (isAbsent(answer)) return { result: "none", explanation: null };
      throw new SpfAbort("temperror", `TXT query for ${domain} failed (${answer.code})`);
    }
    const records = selectSpfRecords(answer.records);
    if (records.length === 0) return { result: "none", explanation: null };
    if (records.length > 1) throw new SpfAbort("permerror", `${domain} publishes ${records.length} SPF records`);
    const parsed = parseSpfRecord(records[0]!);
    if (!parsed.ok) throw new SpfAbort("permerror", `${domain}: ${parsed.problems.join("; ")}`);
    const record = parsed.record;

    for (const mechanism of record.mechanisms) {
      if (!(await this.matches(mechanism, domain))) continue;
      const result = QUALIFIER_RESULT[mechanism.qualifier];
      const explanation = result === "fail" && explain ? await this.explanation(record.exp, domain) : null;
      return { result, explanation };
    }
    if (record.redirect !== null && !hasAll(record)) {
      this.countLookup();
      const target = await this.targetName(record.redirect, domain);
      if (target === null) throw new SpfAbort("permerror", `redirect=${record.redirect} is not a valid domain`);
      // §6.1: the redirect target's result (and its exp=) replaces this record's; "none" there is a permerror.
      const outcome = await this.check(target, explain);
      if (outcome.result === "none") throw new SpfAbort("permerror", `redirect target ${target} has no SPF record`);
      return outcome;
    }
    return { result: "neutral", explanation: null };
  }

  private countLookup(): void {
    if (++this.lookups > SPF_LIMITS.lookups) {
      throw new SpfAbort("permerror", `more than ${SPF_LIMITS.lookups} DNS-querying terms`);
    }
  }

  private countVoid(answer: DnsAnswer<unknown>): void {
    if (isAbsent(answer) && ++this.voids > SPF_LIMITS.voidLookups) {
      throw new SpfAbort("permerror", `more than ${SPF_LIMITS.voidLookups} void lookups`);
    }
  }

  /** §5: an error other than NXDOMAIN ends the whole evaluation with temperror. */
  private orTemperror<T>(answer: DnsAnswer<T[]>, what: string): T[] {
    if (answer.ok) return answer.records;
    if (isAbsent(answer)) return [];
    throw new SpfAbort("temperror", `${what} failed (${answer.code})`);
  }

  private async matches(m: SpfMechanism, domain: string): Promise<boolean> {
    switch (m.kind) {
      case "all":
        return true;
      case "ip4":
      case "ip6": {
        const network = m.kind === "ip4" ? parseIpv4(m.address) : parseIpv6(m.address);
        return network !== null && inNetwork(this.ip, network, m.prefix ?? (m.kind === "ip4" ? 32 : 128));
      }
      case "include": {
        this.countLookup();
        const target = await this.targetName(m.domain, domain);
        const outcome = target === null ? null : await this.check(target, false);
        // §5.2: pass matches; fail, softfail and neutral do not; none (or a malformed target) is a permerror.
        if (outcome === null || outcome.result === "none") {
          throw new SpfAbort("permerror", `include:${m.domain} has no SPF record`);
        }
        return outcome.result === "pass";
      }
      case "a": {
        this.countLookup();
        const target = m.domain === null ? domain : await this.targetName(m.domain, domain);
        if (target === null) return false;
        return this.anyAddressMatches(await this.addresses(target, true), m.cidr4, m.cidr6);
      }
      case "mx": {
        this.countLookup();
        const target = m.domain === null ? domain : await this.targetName(m.domain, domain);
        if (target === null) return false;
        const answer = await this.dns.mx(target);
        this.countVoid(answer);
        const exchanges = this.orTemperror(answer, `MX query for ${target}`)
          .map((mx) => mx.exchange)
          .filter((name) => name !== "" && name !== ".");
        // §4.6.4: looking up more than 10 MX names is a permerror (the mx-limit test of the RFC 7208 suite).
        if (exchanges.length > SPF_LIMITS.namesPerTerm) {
          throw new SpfAbort("permerror", `${target} has more than ${SPF_LIMITS.namesPerTerm} MX records`);
        }
        for (const exchange of exchanges) {
          if (this.anyAddressMatches(await this.addresses(exchange, false), m.cidr4, m.cidr6)) return true;
        }
        return false;
      }
      case "ptr": {
        this.countLookup();
        const target = m.domain === null ? domain : await this.targetName(m.domain, domain);
        if (target === null) return false;
        const wanted = target.toLowerCase();
        return (await this.validatedNames(true)).some((n) => n === wanted || n.endsWith(`.${wanted}`));
      }
      case "exists": {
        this.countLookup();
        const target = await this.targetName(m.domain, domain);
        if (target === null) return false;
        // §5.7: always an A query, whatever the client's address family.
        const answer = await this.dns.a(target);
        this.countVoid(answer);
        return this.orTemperror(answer, `A query for ${target}`).length > 0;
      }
    }
  }

  /** A or AAAA records of `name`, by the client's family (§5.3). */
  private async addresses(name: string, countVoid: boolean): Promise<SpfIp[]> {
    const answer = this.ip.family === 4 ? await this.dns.a(name) : await this.dns.aaaa(name);
    if (countVoid) this.countVoid(answer);
    const parse = this.ip.family === 4 ? parseIpv4 : parseIpv6;
    return this.orTemperror(answer, `address query for ${name}`)
      .map((a) => parse(a))
      .filter((a): a is SpfIp => a !== null);
  }

  private anyAddressMatches(addresses: readonly SpfIp[], cidr4: number | null, cidr6: number | null): boolean {
    const prefix = this.ip.family === 4 ? (cidr4 ?? 32) : (cidr6 ?? 128);
    return addresses.some((a) => inNetwork(this.ip, a, prefix));
  }

  /**
   * §5.5: the PTR names of the client address whose own A/AAAA records include it (at most 10 names are tried;
   * a DNS error skips a name, a PTR error means none). Lower case, without trailing dots.
   */
  private async validatedNames(countVoid: boolean): Promise<string[]> {
    const answer = await this.dns.ptr(reverseName(this.ip));
    if (countVoid) this.countVoid(answer);
    if (!answer.ok) return [];
    const validated: string[] = [];
    for (const raw of answer.records.slice(0, SPF_LIMITS.namesPerTerm)) {
      const name = dnsName(raw);
      if (name === null) continue;
      const addresses = this.ip.family === 4 ? await this.dns.a(name) : await this.dns.aaaa(name);
      if (!addresses.ok) continue;
      if (addresses.records.some((a) => this.isClient(a))) validated.push(name.toLowerCase());
    }
    return validated;
  }

  private isClient(address: string): boolean {
    const parsed = this.ip.family === 4 ? parseIpv4(address) : parseIpv6(address);
    return parsed !== null && inNetwork(this.ip, parsed, this.ip.family === 4 ? 32 : 128);
  }

  /** §7.3 %{p}: the validated name, preferring <domain> itself, then a subdomain of it; "unknown" when none. */
  private async pMacro(domain: string): Promise<string> {
    // The PTR and address lookups are made once per evaluation, whichever record asks.
    this.validated ??= this.validatedNames(false);
    const names = await this.validated;
    const d = domain.toLowerCase().replace(/\.$/, "");
    return names.find((n) => n === d) ?? names.find((n) => n.endsWith(`.${d}`)) ?? names[0] ?? "unknown";
  }

  private macroValues(domain: string): MacroValues {
    const seconds = Math.floor((this.input.now ?? new Date()).getTime() / 1000);
    return {
      s: this.input.sender,
      l: this.local,
      o: this.senderDomain,
      d: domain,
      i: macroIp(this.ip),
      h: this.input.helo,
      v: this.ip.family === 4 ? "in-addr" : "ip6",
      c: readableIp(this.ip),
      r: this.input.receiver ?? "unknown",
      t: String(seconds),
      p: () => this.pMacro(domain),
    };
  }

  /**
   * §4.8 and §7.3: the <target-name> a domain-spec names, macros expanded for `domain`, trailing dot dropped,
   * truncated from the left to 253 octets; null when the result is not a name DNS can be asked (empty or
   * over-long labels), which the caller treats as a name that does not exist.
   */
  private async targetName(spec: string, domain: string): Promise<string | null> {
    const parsed = parseMacroString(spec, "domain");
    if (!parsed.ok) return null;
    const hasMacro = parsed.tokens.some((t) => t.kind === "macro");
    const expanded = await expandMacros(parsed.tokens, this.macroValues(domain));
    return dnsName(hasMacro ? truncateLeft(expanded.replace(/\.$/, "")) : expanded);
  }

  /**
   * §6.2: the explanation for a fail. Any problem (no target, DNS error, not exactly one TXT record, bad macro
   * syntax, non-ASCII text) means no explanation. The lookup happens after the result is known and does not count
   * against the limits.
   */
  private async explanation(spec: string | null, domain: string): Promise<string | null> {
    if (spec === null) return null;
    const target = await this.targetName(spec, domain);
    if (target === null) return null;
    const answer = await this.dns.txt(target);
    if (!answer.ok || answer.records.length !== 1) return null;
    const parsed = parseMacroString(answer.records[0]!, "explanation");
    return parsed.ok ? expandMacros(parsed.tokens, this.macroValues(domain)) : null;
  }
}

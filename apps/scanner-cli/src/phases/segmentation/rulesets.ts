/**
 * The Linux kernel's packet filter as `nft -j list ruleset` and `iptables-save` print it, judged for what matters to
 * a segment: the default for incoming traffic, and rules that accept sensitive ports from any address. Pure parsers
 * (fixtures captured in fresh network namespaces, phases/FIXTURES.md) and a pure judgement.
 *
 * Only base chains on the input hook (nftables) or the filter table's INPUT chain (iptables) are judged. Jumps to
 * other chains (ufw's, firewalld's zones) are counted, not followed: what they accept is not claimed either way.
 */
import { z } from "zod";

export interface InputRule {
  readonly verdict: "accept" | "drop" | "reject" | "jump" | "other";
  /** No source address or interface condition other than loopback: the rule applies to any sender. */
  readonly fromAnywhere: boolean;
  /** Matches the loopback interface (`iif lo`, `-i lo`): traffic from this machine itself. */
  readonly loopback: boolean;
  /** Matches connection-tracking state (established/related replies), not new connections. */
  readonly conntrack: boolean;
  /** TCP destination ports it matches: a list, `any` (no port condition), or ranges folded to their bounds. */
  readonly ports: readonly PortMatch[] | "any";
  /** Matches something this judgement does not read (protocols other than TCP, marks, limits…). */
  readonly otherConditions: boolean;
}

export type PortMatch = number | { readonly from: number; readonly to: number };

export interface InputChain {
  readonly name: string;
  readonly policy: "accept" | "drop";
  readonly rules: readonly InputRule[];
}

export interface Ruleset {
  readonly tool: "nftables" | "iptables";
  readonly inputChains: readonly InputChain[];
}

/* ---------- nft -j list ruleset ---------- */

const NftChainSchema = z.object({
  family: z.string(),
  table: z.string(),
  name: z.string(),
  hook: z.string().optional(),
  type: z.string().optional(),
  policy: z.string().optional(),
});
const NftRuleSchema = z.object({
  family: z.string(),
  table: z.string(),
  chain: z.string(),
  expr: z.array(z.record(z.string(), z.unknown())),
});
const NftDocumentSchema = z.object({ nftables: z.array(z.record(z.string(), z.unknown())) });

/** Families whose input hook sees IP traffic to this machine (netdev/bridge/arp do not filter it here). */
const IP_FAMILIES = new Set(["inet", "ip", "ip6"]);

function nftPorts(right: unknown): readonly PortMatch[] | null {
  if (typeof right === "number") return [right];
  const r = right as { set?: unknown[]; range?: unknown[] } | null;
  if (r && Array.isArray(r.range) && typeof r.range[0] === "number" && typeof r.range[1] === "number")
    return [{ from: r.range[0], to: r.range[1] }];
  if (r && Array.isArray(r.set)) {
    const out: PortMatch[] = [];
    for (const item of r.set) {
      const sub = nftPorts(item);
      if (!sub) return null;
      out.push(...sub);
    }
    return out;
  }
  return null;
}

function nftRule(expr: readonly Record<string, unknown>[]): InputRule {
  let verdict: InputRule["verdict"] = "other";
  let fromAnywhere = true;
  let loopback = false;
  let conntrack = false;
  let ports: readonly PortMatch[] | "any" = "any";
  let otherConditions = false;
  for (const e of expr) {
    if ("accept" in e) verdict = "accept";
    else if ("drop" in e) verdict = "drop";
    else if ("reject" in e) verdict = "reject";
    else if ("jump" in e || "goto" in e) verdict = "jump";
    else if ("match" in e) {
      const m = e.match as { op?: string; left?: Record<string, unknown>; right?: unknown };
      const payload = m.left?.payload as { protocol?: string; field?: string } | undefined;
      const meta = m.left?.meta as { key?: string } | undefined;
      if (m.left?.ct) conntrack = true;
      else if (meta && (meta.key === "iif" || meta.key === "iifname") && m.right === "lo" && m.op === "==")
        loopback = true;
      else if (meta && (meta.key === "iif" || meta.key === "iifname")) fromAnywhere = false;
      else if (payload?.field === "saddr") fromAnywhere = false;
      else if (payload?.field === "dport" && (payload.protocol === "tcp" || payload.protocol === "th")) {
        const p = m.op === "==" || m.op === "in" ? nftPorts(m.right) : null;
        if (p) ports = p;
        else otherConditions = true;
      } else otherConditions = true;
    }
    // counter, log, limit… do not change what the rule matches or decides.
  }
  return { verdict, fromAnywhere, loopback, conntrack, ports, otherConditions };
}

/** `nft -j list ruleset`: the base input chains of the IP families, with their rules. Null if not nft's JSON. */
export function parseNftJson(text: string): Ruleset | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = NftDocumentSchema.safeParse(doc);
  if (!parsed.success) return null;
  const chains = new Map<string, { name: string; policy: "accept" | "drop"; rules: InputRule[] }>();
  for (const item of parsed.data.nftables) {
    const chain = NftChainSchema.safeParse(item.chain);
    if (!chain.success || chain.data.hook !== "input" || !IP_FAMILIES.has(chain.data.family)) continue;
    if ((chain.data.type ?? "filter") !== "filter") continue;
    const key = `${chain.data.family}/${chain.data.table}/${chain.data.name}`;
    // A base chain without a policy accepts (nft's default).
    chains.set(key, { name: key, policy: chain.data.policy === "drop" ? "drop" : "accept", rules: [] });
  }
  for (const item of parsed.data.nftables) {
    const rule = NftRuleSchema.safeParse(item.rule);
    if (!rule.success) continue;
    chains.get(`${rule.data.family}/${rule.data.table}/${rule.data.chain}`)?.rules.push(nftRule(rule.data.expr));
  }
  return { tool: "nftables", inputChains: [...chains.values()] };
}

/* ---------- iptables-save ---------- */

function iptablesPorts(spec: string): PortMatch[] | null {
  const out: PortMatch[] = [];
  for (const part of spec.split(",")) {
    const range = /^(\d{1,5}):(\d{1,5})$/.exec(part);
    if (range) out.push({ from: Number(range[1]), to: Number(range[2]) });
    else if (/^\d{1,5}$/.test(part)) out.push(Number(part));
    else return null;
  }
  return out;
}

function iptablesRule(args: readonly string[]): InputRule {
  let verdict: InputRule["verdict"] = "other";
  let fromAnywhere = true;
  let loopback = false;
  let conntrack = false;
  let ports: readonly PortMatch[] | "any" = "any";
  let otherConditions = false;
  let tcp = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1] ?? "";
    switch (a) {
      case "-j":
      case "-g":
        verdict = next === "ACCEPT" ? "accept" : next === "DROP" ? "drop" : next === "REJECT" ? "reject" : "jump";
        i++;
        break;
      case "-s":
      case "--source":
        if (next !== "0.0.0.0/0" && next !== "::/0") fromAnywhere = false;
        i++;
        break;
      case "-i":
      case "--in-interface":
        if (next === "lo") loopback = true;
        else fromAnywhere = false;
        i++;
        break;
      case "-p":
      case "--protocol":
        if (next === "tcp") tcp = true;
        else otherConditions = true;
        i++;
        break;
      case "--ctstate":
      case "--state":
        conntrack = true;
        i++;
        break;
      case "--dport":
      case "--dports":
      case "--destination-port": {
        const p = iptablesPorts(next);
        if (p) ports = p;
        else otherConditions = true;
        i++;
        break;
      }
      case "-m":
        // Match modules (tcp, multiport, conntrack, state, comment) name what follows.
        i++;
        break;
      case "--comment":
        i++;
        break;
      default:
        if (a.startsWith("-")) otherConditions = true;
    }
  }
  if (ports !== "any" && !tcp) otherConditions = true;
  return { verdict, fromAnywhere, loopback, conntrack, ports, otherConditions };
}

/** Splits a rule line as iptables-save quotes it (`--comment "allow ssh"`). */
function words(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** `iptables-save`: the filter table's INPUT chain (policy and rules). Null when the text is not iptables-save's. */
export function parseIptablesSave(text: string): Ruleset | null {
  if (text.trim() === "") return { tool: "iptables", inputChains: [] };
  if (!/^\*\w+$/m.test(text) || !/^COMMIT$/m.test(text)) return null;
  let table = "";
  let policy: "accept" | "drop" | null = null;
  const rules: InputRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("*")) table = line.slice(1);
    if (table !== "filter") continue;
    const chain = /^:INPUT\s+(ACCEPT|DROP)\b/.exec(line);
    if (chain) policy = chain[1] === "DROP" ? "drop" : "accept";
    if (line.startsWith("-A INPUT ")) rules.push(iptablesRule(words(line).slice(2)));
  }
  return { tool: "iptables", inputChains: policy ? [{ name: "filter/INPUT", policy, rules }] : [] };
}

/* ---------- judgement ---------- */

export interface RulesetJudgement {
  readonly tool: Ruleset["tool"];
  /** `drop`: new connections are refused unless a rule accepts them; `accept`: accepted unless a rule refuses. */
  readonly defaultInput: "accept" | "drop";
  /** Rules in the input chains that refuse traffic (drop/reject). */
  readonly refusingRules: number;
  readonly inputRules: number;
  /** Rules that jump to other chains, which are not followed. */
  readonly jumpsNotFollowed: number;
  /** TCP ports (or ranges) a rule accepts from any address, new connections included. */
  readonly acceptedFromAnywhere: readonly PortMatch[];
  /**
   * TCP ports accepted from some addresses or interfaces only (a subnet, an interface), or with conditions this
   * judgement does not read: part of the segment may reach them.
   */
  readonly acceptedFromSome: readonly PortMatch[];
  /** A rule accepts every TCP port from some addresses or interfaces (`ip saddr 10.0.0.0/8 accept`). */
  readonly acceptsAllPortsFromSome: boolean;
}

const isUnconditional = (r: InputRule) =>
  r.fromAnywhere && !r.loopback && !r.conntrack && r.ports === "any" && !r.otherConditions;

/**
 * How the input chains treat a new connection from another machine. A chain's default is its policy, unless it
 * ends with an unconditional drop or reject (firewalld, hand-written rule sets) or accepts everything first. With
 * several base chains, a connection must pass them all: one refusing by default makes the default refusal.
 */
export function judgeRuleset(ruleset: Ruleset): RulesetJudgement {
  let defaultInput: "accept" | "drop" = "accept";
  let refusingRules = 0;
  let inputRules = 0;
  let jumps = 0;
  const accepted: PortMatch[] = [];
  const fromSome: PortMatch[] = [];
  let allPortsFromSome = false;
  for (const chain of ruleset.inputChains) {
    inputRules += chain.rules.length;
    let chainDefault = chain.policy;
    for (const r of chain.rules) {
      if (r.verdict === "drop" || r.verdict === "reject") refusingRules++;
      if (r.verdict === "jump") jumps++;
      if (isUnconditional(r) && r.verdict !== "jump" && r.verdict !== "other") {
        // The first unconditional verdict decides every connection that reached it.
        chainDefault = r.verdict === "accept" ? "accept" : "drop";
        break;
      }
      if (r.verdict === "accept" && r.fromAnywhere && !r.loopback && !r.conntrack && !r.otherConditions) {
        if (r.ports !== "any") accepted.push(...r.ports);
      } else if (r.verdict === "accept" && !r.loopback && !r.conntrack) {
        // An accept without a port condition but with one this judgement does not read is taken to be about
        // another protocol (ICMP, UDP); with a port, it may admit that port to part of the segment.
        if (r.ports !== "any") fromSome.push(...r.ports);
        else if (!r.otherConditions) allPortsFromSome = true;
      }
    }
    if (chainDefault === "drop") defaultInput = "drop";
  }
  return {
    tool: ruleset.tool,
    defaultInput,
    refusingRules,
    inputRules,
    jumpsNotFollowed: jumps,
    acceptedFromAnywhere: accepted,
    acceptedFromSome: fromSome,
    acceptsAllPortsFromSome: allPortsFromSome,
  };
}

/** Whether `port` is among the accepted ports or ranges. */
export function portAccepted(accepted: readonly PortMatch[], port: number): boolean {
  return accepted.some((p) => (typeof p === "number" ? p === port : port >= p.from && port <= p.to));
}

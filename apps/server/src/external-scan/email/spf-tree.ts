import type { TxtLookup } from "../cached-dns.js";
import type { DnsFailureCode } from "../io/types.js";
import {
  hasAll,
  ownLookupCount,
  parseSpfRecord,
  type SpfQualifier,
  type SpfRecord,
  selectSpfRecords,
} from "./spf-record.js";

/** What was found at one name of an SPF evaluation: the domain's record or an include/redirect target's. */
export type SpfNodeState =
  | "record"
  | "none"
  | "multiple"
  | "invalid"
  | "lookup_failed"
  /** Not asked yet: the gather loop fetches these names and builds the tree again. */
  | "pending"
  | "loop"
  /** The name holds a macro (%{d}…) that depends on the message being checked; it cannot be followed here. */
  | "macro"
  /** Past the walk's node budget (the record is far over the lookup limit by then). */
  | "truncated";

export interface SpfNode {
  readonly domain: string;
  readonly via: "root" | "include" | "redirect";
  readonly state: SpfNodeState;
  readonly raw?: string;
  readonly record?: SpfRecord;
  readonly problems?: readonly string[];
  readonly failure?: DnsFailureCode;
  /** include targets in record order, then the redirect target. */
  readonly children: readonly SpfNode[];
}

/**
 * Every non-root node is reached through an include or redirect, each of which costs a lookup, so a walk that
 * visits this many nodes has already proven the record is over the 10-lookup limit.
 */
const NODE_BUDGET = 40;
const MAX_DEPTH = 12;

/** Builds the include/redirect tree of `domain`'s SPF policy from the TXT answers known so far (pure). */
export function buildSpfTree(domain: string, lookup: TxtLookup): SpfNode {
  let budget = NODE_BUDGET;
  const visit = (written: string, via: SpfNode["via"], ancestors: readonly string[]): SpfNode => {
    // A domain-spec is case-insensitive and may end in a dot, unless it holds macros (whose letters have case).
    const name = written.includes("%") ? written : written.toLowerCase().replace(/\.$/, "");
    const leaf = (state: SpfNodeState, extra: Partial<SpfNode> = {}): SpfNode => ({
      domain: name,
      via,
      state,
      children: [],
      ...extra,
    });
    if (name.includes("%")) return leaf("macro");
    if (ancestors.includes(name)) return leaf("loop");
    if (budget <= 0 || ancestors.length >= MAX_DEPTH) return leaf("truncated");
    budget--;
    const answer = lookup(name);
    if (answer === undefined) return leaf("pending");
    if (!answer.ok) {
      return answer.code === "nxdomain" || answer.code === "nodata"
        ? leaf("none")
        : leaf("lookup_failed", { failure: answer.code });
    }
    const records = selectSpfRecords(answer.records);
    if (records.length === 0) return leaf("none");
    if (records.length > 1) return leaf("multiple", { problems: records });
    const raw = records[0]!;
    const parsed = parseSpfRecord(raw);
    if (!parsed.ok) return leaf("invalid", { raw, problems: parsed.problems });
    const record = parsed.record;
    const path = [...ancestors, name];
    const children: SpfNode[] = [];
    for (const m of record.mechanisms) {
      if (m.kind === "include") children.push(visit(m.domain, "include", path));
    }
    if (record.redirect !== null && !hasAll(record)) children.push(visit(record.redirect, "redirect", path));
    return { domain: name, via, state: "record", raw, record, children };
  };
  return visit(domain.toLowerCase(), "root", []);
}

/** Names the tree still needs answers for. */
export function pendingSpfNames(node: SpfNode): string[] {
  if (node.state === "pending") return [node.domain];
  return [...new Set(node.children.flatMap(pendingSpfNames))];
}

/**
 * DNS-querying terms evaluated for this policy, counted recursively through include and redirect as RFC 7208
 * §4.6.4 does. `complete` is false when part of the tree could not be read (then the count is a lower bound).
 */
export function countSpfLookups(node: SpfNode): { count: number; complete: boolean } {
  let count = node.record ? ownLookupCount(node.record) : 0;
  let complete = node.state !== "lookup_failed" && node.state !== "pending" && node.state !== "macro";
  for (const child of node.children) {
    const sub = countSpfLookups(child);
    count += sub.count;
    complete &&= sub.complete;
  }
  return { count, complete };
}

/** The qualifier that ends the policy: its own all, or the redirect target's; null when nothing ends it. */
export function effectiveAllQualifier(node: SpfNode): SpfQualifier | null {
  const all = node.record?.mechanisms.find((m) => m.kind === "all");
  if (all) return all.qualifier;
  const redirect = node.children.find((c) => c.via === "redirect");
  return redirect ? effectiveAllQualifier(redirect) : null;
}

/** Include and redirect targets that make the policy fail with a permanent error when evaluation reaches them. */
export function brokenSpfTargets(node: SpfNode): { domain: string; via: string; state: SpfNodeState }[] {
  const out: { domain: string; via: string; state: SpfNodeState }[] = [];
  for (const child of node.children) {
    if (["none", "multiple", "invalid", "loop"].includes(child.state)) {
      out.push({ domain: child.domain, via: child.via, state: child.state });
    }
    out.push(...brokenSpfTargets(child));
  }
  return out;
}

import type { FindingParsed, JsonObject } from "@hcs/protocol";
import type { TxtLookup } from "../cached-dns.js";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding, type FindingSpec } from "../finding.js";
import type { DnsAnswer } from "../io/types.js";
import { failedDnsOutcome } from "./dns-outcome.js";
import {
  brokenSpfTargets,
  buildSpfTree,
  countSpfLookups,
  effectiveAllQualifier,
  pendingSpfNames,
  type SpfNode,
} from "./spf-tree.js";

/** RFC 7208 §4.6.4: more DNS-querying terms than this make the whole policy a permanent error. */
export const SPF_LOOKUP_LIMIT = 10;
const MAX_ROUNDS = 12;

const base = { category: "email_security", controls: CONTROLS.emailAuthentication } as const;

/** Findings about `domain`'s SPF policy, from its fully gathered include/redirect tree (pure). */
export function evaluateSpf(domain: string, tree: SpfNode): FindingParsed[] {
  const f = (spec: Omit<FindingSpec, keyof typeof base | "subject">) =>
    externalFinding({ ...base, subject: domain, ...spec });
  switch (tree.state) {
    case "none":
      return [
        f({
          check_id: "email.spf.missing",
          severity: "high",
          title: "No SPF record",
          detail: `${domain} publishes no SPF record, so receiving mail servers cannot tell mail really sent by the practice from forged mail using its name.`,
          remediation: `Publish one TXT record at ${domain} listing the services that send the practice's mail and ending in -all, e.g. "v=spf1 include:<your mail provider> -all".`,
        }),
      ];
    case "multiple":
      return [
        f({
          check_id: "email.spf.multiple_records",
          severity: "high",
          title: "More than one SPF record",
          detail: `${domain} publishes ${tree.problems?.length ?? 2} SPF records. RFC 7208 makes that a permanent error: receivers treat the domain as having no usable SPF policy.`,
          evidence: { records: [...(tree.problems ?? [])] },
          remediation: "Merge the records into a single v=spf1 TXT record that lists every sending service once.",
        }),
      ];
    case "invalid":
      return [
        f({
          check_id: "email.spf.invalid",
          severity: "high",
          title: "SPF record has syntax errors",
          detail: `The SPF record of ${domain} does not parse (${(tree.problems ?? []).join("; ")}); receivers treat it as a permanent error and ignore it.`,
          evidence: { record: tree.raw ?? "", problems: [...(tree.problems ?? [])] },
          remediation:
            "Correct the record's syntax (RFC 7208 §12) and check it with an SPF validator after publishing.",
        }),
      ];
    case "record":
      break;
    default:
      return [];
  }

  const findings: FindingParsed[] = [];
  const lookups = countSpfLookups(tree);
  if (lookups.count > SPF_LOOKUP_LIMIT) {
    findings.push(
      f({
        check_id: "email.spf.too_many_lookups",
        severity: "high",
        title: "SPF record needs more than 10 DNS lookups",
        detail: `Evaluating the SPF policy of ${domain} takes ${lookups.complete ? "" : "at least "}${lookups.count} DNS-querying terms (include, a, mx, ptr, exists, redirect) counted through its includes; RFC 7208 allows 10, so receivers give up with a permanent error and the policy protects nothing.`,
        evidence: { lookups: lookups.count, limit: SPF_LOOKUP_LIMIT, record: tree.raw ?? "" },
        remediation:
          "Remove includes of services that no longer send mail, replace a/mx mechanisms with ip4/ip6 ranges, or use a subdomain for bulk senders, until the count is 10 or fewer.",
      }),
    );
  }
  const broken = brokenSpfTargets(tree);
  if (broken.length > 0) {
    findings.push(
      f({
        check_id: "email.spf.broken_include",
        severity: "medium",
        title: "SPF policy refers to a missing or broken record",
        detail: `${broken.map((b) => `${b.via} ${b.domain} (${b.state === "none" ? "no SPF record" : b.state})`).join(", ")}: receivers reach a permanent error when evaluation gets there.`,
        evidence: { targets: broken.map((b) => ({ ...b })) },
        remediation:
          "Remove the include or redirect, or correct the domain it names to the one the mail provider documents.",
      }),
    );
  }
  const all = effectiveAllQualifier(tree);
  const allFinding = ALL_FINDINGS[all ?? "none"];
  if (allFinding) findings.push(f({ ...allFinding, evidence: { record: tree.raw ?? "", ends_with: all ?? "" } }));
  return findings;
}

type AllFinding = Pick<FindingSpec, "check_id" | "severity" | "title" | "detail" | "remediation">;

// What the policy says about mail from servers it does not list.
const ALL_FINDINGS: Record<"+" | "?" | "~" | "-" | "none", AllFinding | null> = {
  "+": {
    check_id: "email.spf.pass_all",
    severity: "critical",
    title: "SPF record authorizes every server on the internet (+all)",
    detail:
      "The policy ends in +all: any server may send mail as the practice and pass SPF, which makes forged mail look legitimate.",
    remediation:
      "End the record with -all (or ~all while a DMARC policy enforces), after listing the real sending services.",
  },
  "?": {
    check_id: "email.spf.neutral_all",
    severity: "medium",
    title: "SPF record ends in ?all (neutral)",
    detail:
      "The policy ends in ?all: mail from unlisted servers is neither passed nor failed, so SPF gives receivers nothing to act on.",
    remediation: "End the record with -all once every sending service is listed.",
  },
  "~": {
    check_id: "email.spf.softfail_all",
    severity: "low",
    title: "SPF record ends in ~all (soft fail)",
    detail:
      "The policy ends in ~all: forged mail only soft-fails and is usually delivered unless a DMARC policy rejects it.",
    remediation: "End the record with -all, or make sure the DMARC policy is quarantine or reject.",
  },
  "-": null,
  none: {
    check_id: "email.spf.no_all",
    severity: "medium",
    title: "SPF record has no all mechanism",
    detail: "Nothing ends the policy, so mail from unlisted servers gets a neutral result, as with ?all.",
    remediation: "End the record with -all.",
  },
};

/** Asks DNS for the SPF tree level by level until every reachable include and redirect is known. */
async function gatherSpfTree(domain: string, txt: (name: string) => Promise<DnsAnswer<string[]>>) {
  const known = new Map<string, DnsAnswer<string[]>>();
  const lookup: TxtLookup = (name) => known.get(name.toLowerCase());
  let tree = buildSpfTree(domain, lookup);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const pending = pendingSpfNames(tree);
    if (pending.length === 0) break;
    await Promise.all(pending.map(async (n) => known.set(n, await txt(n))));
    tree = buildSpfTree(domain, lookup);
  }
  return { tree, root: known.get(domain.toLowerCase()) };
}

function spfFacts(tree: SpfNode): JsonObject {
  const lookups = countSpfLookups(tree);
  return {
    state: tree.state,
    record: tree.raw ?? null,
    lookups: lookups.count,
    lookups_complete: lookups.complete,
    all: effectiveAllQualifier(tree),
  };
}

export const spfCheck: ExternalCheck = {
  id: "email.spf",
  category: "email_security",
  title: "SPF record",
  subject: "domain",
  timeoutMs: 10_000,
  async run(ctx): Promise<CheckOutcome> {
    const { domain } = ctx.target;
    const { tree, root } = await gatherSpfTree(domain, (n) => ctx.dns.txt(n));
    const failed = root ? failedDnsOutcome(domain, root) : null;
    if (failed) return failed;
    return { status: "ok", findings: evaluateSpf(domain, tree), facts: spfFacts(tree) };
  },
};

import { CATEGORY_NAMES, type CategoryName, type FindingParsed, type JsonObject } from "@hcs/protocol";
import type { CheckRecord } from "./check.js";
import { EXTERNAL_CHECKS } from "./checks.js";
import { createScanContext } from "./context.js";
import { signalWithin } from "./deadline.js";
import { ExternalScanError } from "./errors.js";
import type { ExternalScanIO } from "./io/types.js";
import type { CrawlLimits } from "./privacy/crawl.js";
import { runCheck } from "./run-check.js";
import { parseScanTarget, type ScanTargetInput } from "./target.js";

export interface ExternalScanOptions {
  /** Scan private, loopback and link-local targets (HCS_ALLOW_PRIVATE_TARGETS=1: tests and the demo only). */
  readonly allowPrivateTargets: boolean;
  /** The whole scan's budget; every check is cut off when it runs out. Default 60 s. */
  readonly timeoutMs?: number;
  /** Cancels the scan (worker shutdown): the promise rejects with ExternalScanError("scan_cancelled"). */
  readonly signal?: AbortSignal;
  readonly now?: () => Date;
  readonly crawlLimits?: CrawlLimits;
}

export interface ExternalScanResult {
  readonly target: { readonly domain: string; readonly website: string };
  readonly started_at: string;
  readonly duration_ms: number;
  /**
   * Schema-valid findings (FindingInputSchema parsed: evidence always present), source "external"; info findings
   * name the checks that could not assess.
   */
  readonly findings: FindingParsed[];
  /** Categories with at least one check that ran to completion: the ones to score. */
  readonly categories: CategoryName[];
  readonly checks: CheckRecord[];
  readonly facts: JsonObject;
}

/** The facts one check recorded in a scan result, or undefined when it recorded none. */
export function checkFactsOf(result: Pick<ExternalScanResult, "facts">, checkId: string): JsonObject | undefined {
  const checks = result.facts.checks;
  if (!checks || typeof checks !== "object" || Array.isArray(checks)) return undefined;
  const facts = checks[checkId];
  return facts && typeof facts === "object" && !Array.isArray(facts) ? facts : undefined;
}

export const DEFAULT_SCAN_BUDGET_MS = 60_000;

/**
 * Scans a practice's public surface: email authentication records of its domain, the TLS, headers and exposed
 * services of its website's host, and trackers, privacy notice and forms on its patient-facing pages. Never
 * throws for what it finds or cannot reach; completes within `timeoutMs`.
 */
export async function runExternalScan(
  target: ScanTargetInput,
  io: ExternalScanIO,
  options: ExternalScanOptions,
): Promise<ExternalScanResult> {
  const parsed = parseScanTarget(target);
  const budget = options.timeoutMs ?? DEFAULT_SCAN_BUDGET_MS;
  if (options.signal?.aborted)
    throw new ExternalScanError("scan_cancelled", "the scan was cancelled before it started");
  const signal = signalWithin(options.signal, budget);
  const now = (options.now ?? (() => new Date()))();
  const started = performance.now();
  const ctx = createScanContext({
    target: parsed,
    io,
    now,
    signal,
    allowPrivateTargets: options.allowPrivateTargets,
    ...(options.crawlLimits ? { crawlLimits: options.crawlLimits } : {}),
  });

  const runs = await Promise.all(EXTERNAL_CHECKS.map((check) => runCheck(check, ctx)));
  if (options.signal?.aborted) throw new ExternalScanError("scan_cancelled", "the scan was cancelled");

  const findings: FindingParsed[] = [];
  const ids = new Set<string>();
  for (const finding of runs.flatMap((r) => r.findings)) {
    if (ids.has(finding.id)) continue;
    ids.add(finding.id);
    findings.push(finding);
  }
  const assessed = new Set(runs.filter((r) => r.record.status === "ok").map((r) => r.record.category));
  const checkFacts: JsonObject = {};
  for (const run of runs) if (run.facts) checkFacts[run.record.id] = run.facts;
  return {
    target: { domain: parsed.domain, website: parsed.websiteUrl },
    started_at: now.toISOString(),
    duration_ms: Math.round(performance.now() - started),
    findings,
    categories: CATEGORY_NAMES.filter((c) => assessed.has(c)),
    checks: runs.map((r) => r.record),
    facts: { site_host: parsed.siteHost, checks: checkFacts },
  };
}

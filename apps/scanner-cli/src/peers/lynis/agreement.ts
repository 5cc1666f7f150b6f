/**
 * The agreement table between one Lynis run and one scan of the same machine (bench/host-audit). Pure: it takes
 * the parsed report, the mapping and what the scan document says, and decides for each HIPAA-relevant Lynis item:
 *
 * - agree: the scanner raised one of the mapped checks (or, for `match: assessed`, read the state at all);
 * - disagree: the scanner assessed the question and raised nothing;
 * - scanner misses: the scanner has no check for it, or did not assess it in this scan (phase not ok, the part
 *   named under not_assessed, or the check is not in this build);
 * - inapplicable: the scanner raised nothing and its own facts show the suggestion cannot apply on this machine
 *   (the mapping's `inapplicable_when`, e.g. a driver the running kernel does not have). Shown, and left out of the
 *   matched share's denominator; `matchedShareAll` keeps it in.
 *
 * Scanner findings that no agreeing item accounts for are the scanner's extras, each with what Lynis did about the
 * same question (ran the mapped test and raised nothing, skipped it, or has no test in the mapping).
 */
import { entryFor, type LynisMapping, type LynisMappingEntry } from "./mapping.js";
import type { LynisItem, LynisReport } from "./report.js";

/** What the bench reads from the scan document, per phase. */
export interface ScanPhaseView {
  readonly id: string;
  readonly status: string;
  readonly findings: readonly { id: string; check_id: string; severity: string; title: string }[];
  /** Parts the phase could not read: the keys of its facts.not_assessed. */
  readonly notAssessed: readonly string[];
  /** The phase's facts, for the mapping's `inapplicable_when` (omitted: no item is found inapplicable). */
  readonly facts?: unknown;
}

export type ScannerState =
  | { readonly state: "raised"; readonly findings: readonly string[] }
  | { readonly state: "clear" }
  | { readonly state: "not_assessed"; readonly reason: string }
  | { readonly state: "no_check"; readonly reason: string };

export type Verdict = "agree" | "disagree" | "scanner_misses" | "inapplicable";

export interface AgreementRow {
  readonly verdict: Verdict;
  readonly item: LynisItem;
  readonly entry: LynisMappingEntry;
  readonly scanner: ScannerState;
}

export interface ExtraRow {
  readonly finding: { id: string; check_id: string; severity: string; title: string };
  /** What Lynis did about the same question. */
  readonly lynis: string;
}

export interface AgreementTable {
  readonly rows: readonly AgreementRow[];
  readonly extra: readonly ExtraRow[];
  readonly notRelevant: readonly { item: LynisItem; why: string }[];
  /** Items whose test id the mapping does not know: the mapping needs an entry. */
  readonly unmapped: readonly LynisItem[];
  readonly counts: {
    readonly relevant: number;
    readonly agree: number;
    readonly disagree: number;
    readonly scannerMisses: number;
    readonly inapplicable: number;
    readonly scannerExtra: number;
    readonly notRelevant: number;
    readonly unmapped: number;
  };
  /**
   * agree / (relevant − inapplicable), whose goal is ≥ 0.9 (docs/scanner.md#measured-against-lynis-benchhost-audit);
   * null when nothing applicable was raised.
   */
  readonly matchedShare: number | null;
  /** agree / relevant, inapplicable items counted as not matched. */
  readonly matchedShareAll: number | null;
}

export interface CompareOptions {
  /** Check ids this scanner build can raise; a mapped id outside it reads `no_check`. Omitted: all are assumed. */
  readonly knownChecks?: ReadonlySet<string>;
}

export function compareWithLynis(
  report: LynisReport,
  mapping: LynisMapping,
  phases: readonly ScanPhaseView[],
  options: CompareOptions = {},
): AgreementTable {
  const byPhase = new Map(phases.map((p) => [p.id, p]));
  const findings = phases.flatMap((p) => p.findings);
  const rows: AgreementRow[] = [];
  const notRelevant: { item: LynisItem; why: string }[] = [];
  const unmapped: LynisItem[] = [];
  const accounted = new Set<string>();

  for (const item of report.items) {
    const entry = entryFor(mapping, item);
    if (!entry) {
      unmapped.push(item);
      continue;
    }
    if (!entry.relevant) {
      notRelevant.push({ item, why: entry.why });
      continue;
    }
    const scanner = scannerState(entry, byPhase, findings, options.knownChecks);
    const verdict: Verdict =
      scanner.state === "raised" || (scanner.state === "clear" && entry.match === "assessed")
        ? "agree"
        : scanner.state === "clear" && inapplicableHere(entry, byPhase)
          ? "inapplicable"
          : scanner.state === "clear"
            ? "disagree"
            : "scanner_misses";
    if (verdict === "agree" && scanner.state === "raised") for (const id of scanner.findings) accounted.add(id);
    rows.push({ verdict, item, entry, scanner });
  }

  const extra: ExtraRow[] = findings
    .filter((f) => !accounted.has(f.id))
    .map((f) => ({ finding: f, lynis: lynisCounterpart(f.check_id, mapping, report) }));

  const count = (v: Verdict) => rows.filter((r) => r.verdict === v).length;
  return {
    rows,
    extra,
    notRelevant,
    unmapped,
    counts: {
      relevant: rows.length,
      agree: count("agree"),
      disagree: count("disagree"),
      scannerMisses: count("scanner_misses"),
      inapplicable: count("inapplicable"),
      scannerExtra: extra.length,
      notRelevant: notRelevant.length,
      unmapped: unmapped.length,
    },
    matchedShare: rows.length === count("inapplicable") ? null : count("agree") / (rows.length - count("inapplicable")),
    matchedShareAll: rows.length === 0 ? null : count("agree") / rows.length,
  };
}

/** Every `inapplicable_when` condition holds in the scan's facts (a phase or path not there: it does not). */
function inapplicableHere(entry: LynisMappingEntry, byPhase: ReadonlyMap<string, ScanPhaseView>): boolean {
  const conditions = Object.entries(entry.inapplicable_when?.facts ?? {});
  if (conditions.length === 0) return false;
  return conditions.every(([path, expected]) => {
    const [phaseId, ...keys] = path.split(".");
    let value: unknown = byPhase.get(phaseId!)?.facts;
    for (const k of keys)
      value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[k] : undefined;
    return value === expected;
  });
}

function scannerState(
  entry: LynisMappingEntry,
  byPhase: ReadonlyMap<string, ScanPhaseView>,
  findings: readonly ScanPhaseView["findings"][number][],
  knownChecks: ReadonlySet<string> | undefined,
): ScannerState {
  if (entry.scanner.length === 0) return { state: "no_check", reason: "the scanner has no check for this" };
  const raised = findings.filter((f) => entry.scanner.includes(f.check_id)).map((f) => f.id);
  if (raised.length > 0) return { state: "raised", findings: raised };
  const built = knownChecks ? entry.scanner.filter((c) => knownChecks.has(c)) : entry.scanner;
  if (built.length === 0) {
    return {
      state: "no_check",
      reason: `not in this build${entry.pending ? ` (added by ${entry.pending})` : ""}: ${entry.scanner.join(", ")}`,
    };
  }
  for (const phaseId of new Set(built.map((c) => c.split(".")[0]!))) {
    const phase = byPhase.get(phaseId);
    if (!phase) return { state: "not_assessed", reason: `phase ${phaseId} did not run` };
    if (phase.status !== "ok") return { state: "not_assessed", reason: `phase ${phaseId} ${phase.status}` };
    const gaps = (entry.not_assessed ?? []).filter((k) => phase.notAssessed.includes(k));
    if (gaps.length > 0) return { state: "not_assessed", reason: `${phaseId}: ${gaps.join(", ")} not assessed` };
  }
  return { state: "clear" };
}

/** For a scanner finding nothing in Lynis agreed with: what Lynis did about the same question. */
function lynisCounterpart(checkId: string, mapping: LynisMapping, report: LynisReport): string {
  const tests = [...new Set(mapping.entries.filter((e) => e.scanner.includes(checkId)).map((e) => e.lynis))];
  if (tests.length === 0) return "no Lynis test in the mapping";
  const ran = tests.filter((t) => report.testsExecuted.has(t));
  if (ran.length > 0) return `Lynis ran ${ran.join(", ")} and raised nothing`;
  const skipped = tests.filter((t) => report.testsSkipped.has(t));
  if (skipped.length > 0) return `Lynis skipped ${skipped.join(", ")}`;
  return `Lynis did not run ${tests.join(", ")}`;
}

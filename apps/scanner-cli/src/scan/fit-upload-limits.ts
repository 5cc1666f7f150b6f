import {
  exceededFindingLimit,
  type FindingInput,
  findingHost,
  type PhaseId,
  type PhaseResult,
  phaseDescriptor,
  SCAN_UPLOAD_LIMITS,
  type ScanResultDocument,
  type ScanUploadLimits,
  SEVERITIES,
  type Severity,
} from "@hcs/protocol";

/** What was left out of a document to fit the upload limits (all zero and empty when nothing was). */
export interface LeftOut {
  readonly findings: number;
  readonly bySeverity: Readonly<Record<Severity, number>>;
  /** Hosts none of whose findings could be kept. */
  readonly hosts: number;
  /** Phases whose facts were replaced by a note to fit the byte limit. */
  readonly factsOf: readonly PhaseId[];
}

const rank = (s: Severity) => SEVERITIES.indexOf(s);

interface Entry {
  readonly phase: number;
  readonly index: number;
  readonly host: string;
  readonly finding: FindingInput;
}

/**
 * The document as the server will accept it (SCAN_UPLOAD_LIMITS): within the limits it is unchanged. Beyond the
 * finding limits the most severe findings are kept (per host, then the hosts whose findings are most severe, then
 * overall) and one info finding about the scanning machine says what was left out, so the server never refuses a
 * real scan (a refused scan would otherwise stay in the spool for good). Beyond the byte limit the largest phase
 * facts give way first (the next scan supersedes them; findings are what the grade is made of), then findings.
 * Pure: `byteLength` measures the body as it will be sent.
 */
export function fitUploadLimits(
  doc: ScanResultDocument,
  byteLength: (body: string) => number,
  limits: ScanUploadLimits = SCAN_UPLOAD_LIMITS,
): { document: ScanResultDocument; leftOut: LeftOut } {
  let budget = limits.findings_per_upload;
  for (;;) {
    const within = { ...limits, findings_per_upload: budget };
    const capped = exceededFindingLimit(doc, within) ? capFindings(doc, within, limits) : null;
    const { document, factsOf } = trimFacts({ ...doc, phases: capped?.phases ?? doc.phases }, byteLength, limits);
    const size = byteLength(JSON.stringify(document));
    const kept = document.phases.reduce((n, p) => n + p.findings.length, 0);
    // Two findings (one kept, the note) is as far as findings can give way; only a huge envelope gets there.
    if (size <= limits.upload_bytes || budget <= 2) {
      const dropped = capped?.dropped ?? [];
      return {
        document,
        leftOut: {
          findings: dropped.length,
          bySeverity: countBySeverity(dropped),
          hosts: capped?.hostsLeftOut ?? 0,
          factsOf,
        },
      };
    }
    // Still too large without facts: fewer findings, in proportion to the excess (always fewer than now).
    budget = Math.max(2, Math.min(kept - 1, Math.floor((kept * limits.upload_bytes * 0.9) / size)));
  }
}

/** Replaces the largest phase facts by a short note until the document fits the byte limit (or no facts are left). */
function trimFacts(
  doc: ScanResultDocument,
  byteLength: (body: string) => number,
  limits: ScanUploadLimits,
): { document: ScanResultDocument; factsOf: PhaseId[] } {
  const factsOf: PhaseId[] = [];
  const phases = [...doc.phases];
  const sizes = phases.map((p) => byteLength(JSON.stringify(p.facts)));
  const largestFirst = [...phases.keys()].sort((a, b) => sizes[b]! - sizes[a]!);
  for (const i of largestFirst) {
    if (byteLength(JSON.stringify({ ...doc, phases })) <= limits.upload_bytes) break;
    const phase = phases[i]!;
    if (Object.keys(phase.facts).length === 0) continue;
    phases[i] = { ...phase, facts: { facts_left_out: "over the upload size limit" } };
    factsOf.push(phase.id);
  }
  return { document: { ...doc, phases }, factsOf };
}

function capFindings(
  doc: ScanResultDocument,
  limits: ScanUploadLimits,
  stated: ScanUploadLimits,
): { phases: PhaseResult[]; dropped: Entry[]; hostsLeftOut: number } {
  const scanning = findingHost({}, doc.host.hostname);
  const byHost = new Map<string, Entry[]>([[scanning, []]]);
  doc.phases.forEach((p, phase) => {
    p.findings.forEach((finding, index) => {
      const host = findingHost(finding, doc.host.hostname);
      const list = byHost.get(host) ?? [];
      list.push({ phase, index, host, finding });
      byHost.set(host, list);
    });
  });
  const severest = (a: Entry, b: Entry) =>
    rank(a.finding.severity) - rank(b.finding.severity) || a.phase - b.phase || a.index - b.index;
  // Hosts in order of their most severe finding, then of how many they have; the scanning machine always stays,
  // and keeps one place for the note about what was left out.
  const hosts = [...byHost.keys()].sort((a, b) =>
    a === scanning ? -1 : b === scanning ? 1 : compareHosts(byHost.get(a)!, byHost.get(b)!),
  );
  const keptHosts = hosts.slice(0, limits.hosts_per_upload);
  const candidates = keptHosts.flatMap((host) =>
    [...byHost.get(host)!]
      .sort(severest)
      .slice(0, host === scanning ? limits.findings_per_host - 1 : limits.findings_per_host),
  );
  const keep = new Set(candidates.sort(severest).slice(0, limits.findings_per_upload - 1));
  const all = [...byHost.values()].flat();
  const dropped = all.filter((e) => !keep.has(e));
  const hostsLeftOut = hosts.filter((h) => h !== scanning && !byHost.get(h)!.some((e) => keep.has(e))).length;

  const keptAt = doc.phases.map(() => new Set<number>());
  for (const e of keep) keptAt[e.phase]!.add(e.index);
  const phases: PhaseResult[] = doc.phases.map((p, i) => ({
    ...p,
    findings: p.findings.filter((_, index) => keptAt[i]!.has(index)),
  }));
  // The note goes to the phase that lost the most findings.
  const losses = doc.phases.map((_, i) => dropped.filter((e) => e.phase === i).length);
  const at = losses.indexOf(Math.max(...losses));
  phases[at] = {
    ...phases[at]!,
    findings: [...phases[at]!.findings, leftOutFinding(doc.phases[at]!.id, dropped, hostsLeftOut, stated)],
  };
  return { phases, dropped, hostsLeftOut };
}

function compareHosts(a: readonly Entry[], b: readonly Entry[]): number {
  const worst = (list: readonly Entry[]) => Math.min(...list.map((e) => rank(e.finding.severity)));
  return worst(a) - worst(b) || b.length - a.length;
}

function countBySeverity(entries: readonly Entry[]): Record<Severity, number> {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const e of entries) counts[e.finding.severity]++;
  return counts;
}

/** The info finding that tells the practice (and anyone reading the findings) what the upload does not carry. */
function leftOutFinding(
  phase: PhaseId,
  dropped: readonly Entry[],
  hostsLeftOut: number,
  limits: ScanUploadLimits,
): PhaseResult["findings"][number] {
  const bySeverity = countBySeverity(dropped);
  return {
    id: `${phase}.findings_left_out`,
    check_id: `${phase}.findings_left_out`,
    source: "internal",
    category: phaseDescriptor(phase).categories[0]!,
    severity: "info",
    title: `${dropped.length} less severe findings were left out of this upload`,
    detail:
      `The scan found more than one upload carries (${limits.findings_per_host} findings per host, ` +
      `${limits.hosts_per_upload} hosts, ${limits.findings_per_upload} findings and ${limits.upload_bytes} bytes ` +
      "in all). The most severe findings " +
      `were kept; left out: ${SEVERITIES.filter((s) => bySeverity[s] > 0)
        .map((s) => `${bySeverity[s]} ${s}`)
        .join(", ")}${hostsLeftOut > 0 ? `, including every finding about ${hostsLeftOut} hosts` : ""}.`,
    evidence: { left_out: dropped.length, left_out_by_severity: bySeverity, hosts_left_out: hostsLeftOut },
    remediation:
      "Fix the reported findings first, or scan fewer targets per run (one network per scanner); " +
      "`hcs-scanner scan --json` lists every finding of a scan on this machine.",
    controls: ["164.308(a)(1)(ii)(A)"],
  };
}

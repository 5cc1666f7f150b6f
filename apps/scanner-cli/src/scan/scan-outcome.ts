import {
  type Grade,
  type GradeRecord,
  gradeAtLeast,
  type PhaseResult,
  type ScanResultDocument,
  SEVERITIES,
} from "@hcs/protocol";
import { CliError, EXIT, type ExitCode } from "../cli/errors.js";
import type { OsInfo } from "../host/host.js";
import type { HostIdentity } from "../host/identity.js";
import type { UploadOutcome } from "../upload/upload.js";
import { type DocumentHost, documentFinding } from "./document.js";
import type { LeftOut } from "./fit-upload-limits.js";
import type { NotAssessed } from "./not-assessed.js";
import type { ScanSummary } from "./summary.js";

// The decisions of a scan command after its phases ran, as pure functions of what happened (commands/scan.ts does
// the IO around them): the host the upload describes, whether and how to upload, the grade shown, the exit code,
// and the record `status` reads.

/** The host the upload describes: the OS's own name for it, else the one Node reports; lower-cased. */
export function documentHost(os: OsInfo, identity: HostIdentity, nodeArch: string): DocumentHost {
  return {
    hostname: (os.hostname || identity.hostname()).toLowerCase().slice(0, 253),
    platform: identity.platform,
    os_name: os.distro || os.platform,
    os_version: os.release || "unknown",
    arch: os.arch || nodeArch,
  };
}

/**
 * Where this scan's upload goes once the spool has been tried: `none` (not registered, or --no-upload); `spool`
 * when earlier scans are still waiting for the server (this one joins them without waiting through retries);
 * else `send`.
 */
export function uploadRoute(
  registered: boolean,
  uploadWanted: boolean,
  stillSpooled: number,
): "none" | "spool" | "send" {
  if (!registered || !uploadWanted) return "none";
  return stillSpooled > 0 ? "spool" : "send";
}

export interface GradeShown {
  readonly grade: Grade;
  readonly score: number;
  /** `unified`: the server's grade of the practice; `this host`: this scan's internal categories alone. */
  readonly scope: "unified" | "this host";
}

/** The server's grade when the upload was accepted, else this host's local grade, else none. */
export function gradeShown(upload: UploadOutcome | null, summary: ScanSummary): GradeShown | null {
  const grade = serverGrade(upload);
  if (grade) return { grade: grade.grade, score: grade.compliance_score, scope: "unified" };
  return summary.localGrade ? { ...summary.localGrade, scope: "this host" } : null;
}

export function serverGrade(upload: UploadOutcome | null): GradeRecord | null {
  return upload?.kind === "uploaded" ? upload.acceptance.grade : null;
}

/** The documented exit code: spooled 4, below --fail-under 3 (it wins), else 0; no grade to compare is an error. */
export function scanExitCode(
  upload: UploadOutcome | null,
  failUnder: Grade | undefined,
  shown: GradeShown | null,
): ExitCode {
  if (failUnder && !shown)
    throw new CliError("scan_failed", "no phase completed, so there is no grade to compare with --fail-under");
  if (failUnder && shown && !gradeAtLeast(shown.grade, failUnder)) return EXIT.belowFailUnder;
  return upload?.kind === "spooled" ? EXIT.spooled : EXIT.ok;
}

/** What `status` shows of the last scan (config dir's last-scan.json). */
export function lastScanRecord(
  document: ScanResultDocument,
  summary: ScanSummary,
  upload: UploadOutcome | null,
  shown: GradeShown | null,
) {
  return {
    scan_id: document.scan_id,
    completed_at: document.completed_at,
    summary: { phases: summary.phases, findings: summary.findings },
    upload: upload?.kind ?? "not_uploaded",
    grade: shown,
  };
}

/** Everything a scan's report is rendered from (as text in cli/scan-report.ts, or as JSON below). */
export interface ScanView {
  readonly document: ScanResultDocument;
  readonly results: readonly PhaseResult[];
  readonly summary: ScanSummary;
  readonly gaps: readonly NotAssessed[];
  readonly leftOut: LeftOut;
  readonly upload: UploadOutcome | null;
  /** Earlier scans sent from the spool by this run. */
  readonly flushed: number;
  readonly registered: boolean;
  readonly uploadWanted: boolean;
  readonly shown: GradeShown | null;
  readonly failUnder: Grade | null;
  readonly exit: ExitCode;
  /** The --out file, resolved. */
  readonly outPath: string | null;
}

/** The --json report of a scan. */
export function scanJsonReport(v: ScanView) {
  const { document, results, summary, upload, leftOut } = v;
  return {
    scan_id: document.scan_id,
    host: document.host,
    scope: document.scope,
    summary: { phases: summary.phases, findings: summary.findings },
    phases: results.map((r) => ({
      id: r.id,
      status: r.status,
      duration_ms: r.duration_ms,
      findings: r.findings.length,
      ...(r.reason ? { reason: r.reason } : {}),
    })),
    // Every finding, each with the fields the upload gives it (also those left out of the upload to fit its limits).
    findings: results.flatMap((r) => r.findings.map((f) => ({ phase: r.id, ...documentFinding(f) }))),
    not_assessed: v.gaps,
    upload: upload
      ? upload.kind === "uploaded"
        ? { status: "uploaded", duplicate: upload.acceptance.duplicate }
        : { status: "spooled", reason: upload.reason }
      : { status: "not_uploaded" },
    spooled_sent: v.flushed,
    left_out_of_upload: {
      findings: leftOut.findings,
      by_severity: leftOut.bySeverity,
      hosts: leftOut.hosts,
      facts_of: leftOut.factsOf,
    },
    grade: serverGrade(upload),
    local_grade: summary.localGrade,
    fail_under: v.failUnder,
    exit_code: v.exit,
  };
}

/** What the upload leaves out to stay within the server's limits, in words (nothing when it carries everything). */
export function leftOutLines(leftOut: LeftOut): string[] {
  const lines: string[] = [];
  if (leftOut.findings > 0) {
    const counts = SEVERITIES.filter((s) => leftOut.bySeverity[s] > 0)
      .map((s) => `${leftOut.bySeverity[s]} ${s}`)
      .join(", ");
    lines.push(
      `Left out of the upload to stay within the server's limits: ${leftOut.findings} findings (${counts})` +
        `${leftOut.hosts > 0 ? `, all those about ${leftOut.hosts} hosts among them` : ""}; the most severe were kept. --json lists every finding.`,
    );
  }
  if (leftOut.factsOf.length > 0)
    lines.push(`Left out of the upload to stay within its size limit: the facts of ${leftOut.factsOf.join(", ")}.`);
  return lines;
}

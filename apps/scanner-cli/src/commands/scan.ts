import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { type Grade, type GradeRecord, gradeAtLeast, type Platform, SEVERITIES } from "@hcs/protocol";
import { CliError, EXIT, type ExitCode } from "../cli/errors.js";
import { findingsTable } from "../cli/findings-table.js";
import { paint } from "../cli/output.js";
import { liveProgress, type Progress, plainProgress, silentProgress } from "../cli/progress.js";
import { loadRegistration, type Registration } from "../config/agent-config.js";
import { writeFileAtomic } from "../config/atomic-write.js";
import type { ConfigFiles } from "../config/paths.js";
import { probeEngineSummary } from "../host/net.js";
import { createRealHost } from "../host/real-host.js";
import type { ScanScope } from "../phases/phase.js";
import { PHASE_REGISTRY } from "../phases/registry.js";
import { PhaseSelectionError, ScopeError } from "../runner/errors.js";
import { runPhases } from "../runner/run-phases.js";
import { buildScanScope } from "../runner/scope.js";
import { selectPhases } from "../runner/select-phases.js";
import { buildScanDocument } from "../scan/document.js";
import type { LeftOut } from "../scan/fit-upload-limits.js";
import { notAssessed, notAssessedLines } from "../scan/not-assessed.js";
import { summarizeScan } from "../scan/summary.js";
import { spoolUpload } from "../upload/spool.js";
import { flushSpool, signUpload, type UploadOutcome, uploadOrSpool } from "../upload/upload.js";
import { type CommandContext, type CommonOptions, clientFor, filesFor } from "./context.js";

export interface ScanOptions extends CommonOptions {
  readonly targets?: string;
  readonly phases?: string;
  readonly out?: string;
  /** commander's --no-upload sets upload=false. */
  readonly upload?: boolean;
  readonly failUnder?: Grade;
  /** Per-phase time budget in seconds (--timeout). */
  readonly timeout?: number;
  readonly ephiPaths?: string;
  /** False for one-shot: it keeps no state, so `status` of the registered agent never shows its result. */
  readonly keepLastScan?: boolean;
}

/** Runs the 12-phase scan (or the selected phases), writes --out, uploads or spools, prints the outcome. */
export async function runScan(
  ctx: CommandContext,
  o: ScanOptions,
  files: ConfigFiles,
  registration: Registration | null,
): Promise<ExitCode> {
  const host = await createRealHost();
  let selection: ReturnType<typeof selectPhases>;
  let scope: ScanScope;
  try {
    selection = selectPhases(PHASE_REGISTRY, o.phases);
    scope = await buildScanScope(o.targets, {
      resolve: (h) => host.net.resolve(h),
      interfaces: () => host.sysinfo.networkInterfaces(),
    });
  } catch (err) {
    if (err instanceof ScopeError || err instanceof PhaseSelectionError) throw new CliError("usage", err.message);
    throw err;
  }
  if (selection.added.length > 0 && !o.quiet && !o.json)
    ctx.output.err(`also running ${selection.added.join(", ")} (needed by the phases you chose)`);
  if (scope.mode === "auto" && !o.quiet)
    ctx.output.err(`--targets auto: scanning this machine's subnets: ${scope.given.join(", ")}`);

  const progress: Progress =
    o.json || o.quiet
      ? silentProgress()
      : ctx.output.isTTY
        ? liveProgress(ctx.output, selection.phases, Boolean(o.verbose))
        : plainProgress(ctx.output, Boolean(o.verbose));
  const startedAt = ctx.now();
  const ephiPaths = (o.ephiPaths ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => resolve(ctx.cwd, p));
  // A mistyped folder would otherwise read as "no ePHI found there".
  for (const path of ephiPaths)
    if (!existsSync(path))
      ctx.output.err(`warning: --ephi-paths ${path} does not exist: it is not scanned (check the spelling)`);
  const results = await runPhases({
    host,
    phases: selection.phases,
    scope,
    options: { ephiPaths },
    signal: ctx.signal,
    onEvent: (e) => progress.onEvent(e),
    ...(o.timeout ? { timeoutMs: o.timeout * 1000 } : {}),
  });
  await progress.finish(results);
  const probes = o.verbose ? probeEngineSummary(host.net) : null;
  if (probes) ctx.output.err(probes);
  if (ctx.signal.aborted) throw new CliError("scan_failed", "the scan was interrupted; nothing was uploaded");

  const os = await host.sysinfo.osInfo();
  const hostName = (os.hostname || hostname()).toLowerCase().slice(0, 253);
  const { document, leftOut } = buildScanDocument({
    agentId: registration?.config.agent_id ?? "agt_unregistered0000",
    scannerVersion: ctx.version,
    host: {
      hostname: hostName,
      platform: host.platform as Platform,
      os_name: os.distro || os.platform,
      os_version: os.release || "unknown",
      arch: os.arch || process.arch,
    },
    scope,
    startedAt,
    completedAt: ctx.now(),
    phases: results,
  });
  const body = JSON.stringify(document);
  if (o.out) writeFileAtomic(resolve(ctx.cwd, o.out), `${JSON.stringify(document, null, 2)}\n`, 0o600);
  const summary = summarizeScan(results, hostName);
  const gaps = notAssessed(results);

  let upload: UploadOutcome | null = null;
  let flushed = 0;
  if (registration && o.upload !== false) {
    const client = clientFor(ctx, registration.config, 3);
    const entry = {
      agent_id: registration.config.agent_id,
      scan_id: document.scan_id,
      signature: signUpload(registration.config.agent_id, document.scan_id, body, registration.keys),
      body,
      server_url: registration.config.server_url,
      ca_pem: registration.config.ca_pem,
    };
    // Earlier scans that could not be sent go first (one quick try each); if the server is still out of reach,
    // this scan joins them in the spool without waiting through retries.
    const report = await flushSpool((e) => clientFor(ctx, e, 0), files);
    flushed = report.sent.length;
    if (report.remaining > 0) {
      const path = spoolUpload(files, {
        ...entry,
        spooled_at: ctx.now().toISOString(),
        attempts: 0,
        last_error: "earlier uploads are still waiting for the server",
      });
      upload = { kind: "spooled", path, reason: "the server could not be reached (earlier uploads are still waiting)" };
    } else {
      upload = await uploadOrSpool(client, files, entry, ctx.now());
    }
  }
  const grade: GradeRecord | null = upload?.kind === "uploaded" ? upload.acceptance.grade : null;
  const gradeShown = grade
    ? { grade: grade.grade, score: grade.compliance_score, scope: "unified" as const }
    : summary.localGrade
      ? { ...summary.localGrade, scope: "this host" as const }
      : null;

  if (o.keepLastScan !== false) {
    try {
      writeFileAtomic(
        files.lastScan,
        `${JSON.stringify({ scan_id: document.scan_id, completed_at: document.completed_at, summary: { phases: summary.phases, findings: summary.findings }, upload: upload?.kind ?? "not_uploaded", grade: gradeShown }, null, 2)}\n`,
        0o600,
      );
    } catch (err) {
      // The scan's result is still printed below: a configuration directory that cannot be written costs only the
      // record `status` reads.
      ctx.output.err(
        `warning: could not save the last scan at ${files.lastScan} (${(err as NodeJS.ErrnoException).code ?? String(err)}); \`hcs-scanner status\` will not show it — choose a writable --config-dir`,
      );
    }
  }

  let exit: ExitCode = EXIT.ok;
  if (upload?.kind === "spooled") exit = EXIT.spooled;
  if (o.failUnder && gradeShown && !gradeAtLeast(gradeShown.grade, o.failUnder)) exit = EXIT.belowFailUnder;
  if (o.failUnder && !gradeShown)
    throw new CliError("scan_failed", "no phase completed, so there is no grade to compare with --fail-under");

  if (o.json) {
    ctx.output.out(
      JSON.stringify(
        {
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
          findings: results.flatMap((r) =>
            r.findings.map((f) => ({ id: f.id, phase: r.id, severity: f.severity, title: f.title })),
          ),
          not_assessed: gaps,
          upload: upload
            ? upload.kind === "uploaded"
              ? { status: "uploaded", duplicate: upload.acceptance.duplicate }
              : { status: "spooled", reason: upload.reason }
            : { status: "not_uploaded" },
          spooled_sent: flushed,
          left_out_of_upload: {
            findings: leftOut.findings,
            by_severity: leftOut.bySeverity,
            hosts: leftOut.hosts,
            facts_of: leftOut.factsOf,
          },
          grade: grade ?? null,
          local_grade: summary.localGrade,
          fail_under: o.failUnder ?? null,
          exit_code: exit,
        },
        null,
        2,
      ),
    );
    return exit;
  }
  const p = summary.phases;
  const f = summary.findings;
  const counts = [
    `Scan ${document.scan_id} of ${hostName}: ${p.ok} ok, ${p.failed} failed, ${p.skipped} skipped, ${p.unsupported} unsupported`,
    `Findings: ${paint(ctx.output, "red", `${f.critical} critical`)}, ${f.high} high, ${f.medium} medium, ${f.low} low, ${f.info} info`,
  ];
  const gradeLine = gradeShown
    ? `Grade (${gradeShown.scope}): ${paint(ctx.output, "bold", gradeShown.grade)} (${gradeShown.score}/100)`
    : null;
  if (o.quiet) {
    // Counts only: no table, no notes (problems still reach stderr and the exit code).
    for (const line of counts) ctx.output.out(line);
    if (gradeLine) ctx.output.out(gradeLine);
    if (upload?.kind === "spooled") ctx.output.err(`not uploaded (${upload.reason}); saved in ${upload.path}`);
  } else {
    ctx.output.out("");
    for (const line of counts) ctx.output.out(line);
    ctx.output.out("");
    for (const line of findingsTable(results.flatMap((r) => r.findings))) ctx.output.out(line);
    ctx.output.out("");
    // What was not assessed reads as unknown, never as passed: said next to the findings.
    const gapLines = notAssessedLines(gaps);
    for (const line of gapLines) ctx.output.out(paint(ctx.output, "yellow", line));
    if (gapLines.length > 0) ctx.output.out("");
    if (flushed > 0) ctx.output.out(`Sent ${flushed} earlier scan(s) from the spool.`);
    for (const line of leftOutLines(leftOut)) ctx.output.out(paint(ctx.output, "yellow", line));
    if (upload?.kind === "uploaded")
      ctx.output.out(`Uploaded${upload.acceptance.duplicate ? " (already known to the server)" : ""}.`);
    if (upload?.kind === "spooled")
      ctx.output.out(
        paint(
          ctx.output,
          "yellow",
          `Not uploaded: ${upload.reason}. Saved in ${upload.path}; it will be sent by the next run or \`hcs-scanner flush\`.`,
        ),
      );
    if (!registration && o.upload !== false)
      ctx.output.out("Not uploaded: this machine is not registered (hcs-scanner register).");
    if (gradeLine) ctx.output.out(gradeLine);
    if (o.out) ctx.output.out(`Scan document written to ${resolve(ctx.cwd, o.out)}`);
  }
  if (exit === EXIT.belowFailUnder) ctx.output.err(`grade ${gradeShown?.grade} is below --fail-under ${o.failUnder}`);
  return exit;
}

export async function scanCommand(ctx: CommandContext, o: ScanOptions): Promise<ExitCode> {
  const files = filesFor(ctx, o);
  const registration = loadRegistration(files, ctx.platform);
  if (!registration && o.upload !== false) {
    throw new CliError(
      "not_registered",
      "this machine is not registered: run `hcs-scanner register --key-file <token file>` first, or scan with --no-upload",
    );
  }
  return runScan(ctx, o, files, registration);
}

/** What the upload leaves out to stay within the server's limits, in words (nothing when it carries everything). */
function leftOutLines(leftOut: LeftOut): string[] {
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

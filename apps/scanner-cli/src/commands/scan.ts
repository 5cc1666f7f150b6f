import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Grade, ScanResultDocument } from "@hcs/protocol";
import { CliError, type ExitCode } from "../cli/errors.js";
import { paint } from "../cli/output.js";
import { liveProgress, type Progress, plainProgress, silentProgress } from "../cli/progress.js";
import { scanTextReport } from "../cli/scan-report.js";
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
import { notAssessed } from "../scan/not-assessed.js";
import {
  documentHost,
  gradeShown,
  lastScanRecord,
  type ScanView,
  scanExitCode,
  scanJsonReport,
  uploadRoute,
} from "../scan/scan-outcome.js";
import { ephiPathsOf, scanPlanNotices } from "../scan/scan-plan.js";
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
  const ephiPaths = ephiPathsOf(o.ephiPaths, ctx.cwd);
  for (const line of scanPlanNotices({
    added: selection.added,
    scope,
    missingEphiPaths: ephiPaths.filter((path) => !existsSync(path)),
    quiet: Boolean(o.quiet),
    json: Boolean(o.json),
  }))
    ctx.output.err(line);
  // The live view redraws lines in place, counting the rows each takes: it needs the terminal's real width. A
  // terminal that reports none (0: serial consoles, `script`) gets one line per phase instead.
  const progress: Progress =
    o.json || o.quiet
      ? silentProgress()
      : ctx.output.isTTY && ctx.output.width.reported
        ? liveProgress(ctx.output, selection.phases, Boolean(o.verbose))
        : plainProgress(ctx.output, Boolean(o.verbose));
  const startedAt = ctx.now();
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

  const { document, leftOut } = buildScanDocument({
    agentId: registration?.config.agent_id ?? "agt_unregistered0000",
    scannerVersion: ctx.version,
    host: documentHost(await host.sysinfo.osInfo(), host, process.arch),
    scope,
    startedAt,
    completedAt: ctx.now(),
    phases: results,
  });
  const outPath = o.out ? resolve(ctx.cwd, o.out) : null;
  if (outPath) writeFileAtomic(outPath, `${JSON.stringify(document, null, 2)}\n`, 0o600);
  const summary = summarizeScan(results, document.host.hostname);

  const uploadWanted = o.upload !== false;
  let upload: UploadOutcome | null = null;
  let flushed = 0;
  if (registration && uploadWanted) {
    // Earlier scans that could not be sent go first (one quick try each).
    const report = await flushSpool((e) => clientFor(ctx, e, 0), files);
    flushed = report.sent.length;
    upload = await sendOrSpool(ctx, files, registration, document, uploadRoute(true, true, report.remaining));
  }
  const shown = gradeShown(upload, summary);
  if (o.keepLastScan !== false) saveLastScan(ctx, files, lastScanRecord(document, summary, upload, shown));
  const view: ScanView = {
    document,
    results,
    summary,
    gaps: notAssessed(results),
    leftOut,
    upload,
    flushed,
    registered: registration !== null,
    uploadWanted,
    shown,
    failUnder: o.failUnder ?? null,
    exit: scanExitCode(upload, o.failUnder, shown),
    outPath,
  };
  if (o.json) ctx.output.out(JSON.stringify(scanJsonReport(view), null, 2));
  else
    for (const line of scanTextReport(view, {
      quiet: Boolean(o.quiet),
      paint: (style, text) => paint(ctx.output, style, text),
      width: ctx.output.width.width,
    }))
      ctx.output[line.to](line.text);
  return view.exit;
}

/** Sends the signed upload, or spools it at once when earlier ones are still waiting for the server. */
async function sendOrSpool(
  ctx: CommandContext,
  files: ConfigFiles,
  registration: Registration,
  document: ScanResultDocument,
  route: "spool" | "send" | "none",
): Promise<UploadOutcome | null> {
  if (route === "none") return null;
  const body = JSON.stringify(document);
  const entry = {
    agent_id: registration.config.agent_id,
    scan_id: document.scan_id,
    signature: signUpload(registration.config.agent_id, document.scan_id, body, registration.keys),
    body,
    server_url: registration.config.server_url,
    ca_pem: registration.config.ca_pem,
  };
  if (route === "send") return uploadOrSpool(clientFor(ctx, registration.config, 3), files, entry, ctx.now());
  const path = spoolUpload(files, {
    ...entry,
    spooled_at: ctx.now().toISOString(),
    attempts: 0,
    last_error: "earlier uploads are still waiting for the server",
  });
  return { kind: "spooled", path, reason: "the server could not be reached (earlier uploads are still waiting)" };
}

/**
 * Writes the record `status` reads. The scan's result is still printed: a configuration directory that cannot be
 * written costs only this record.
 */
function saveLastScan(ctx: CommandContext, files: ConfigFiles, record: ReturnType<typeof lastScanRecord>): void {
  try {
    writeFileAtomic(files.lastScan, `${JSON.stringify(record, null, 2)}\n`, 0o600);
  } catch (err) {
    ctx.output.err(
      `warning: could not save the last scan at ${files.lastScan} (${(err as NodeJS.ErrnoException).code ?? String(err)}); \`hcs-scanner status\` will not show it — choose a writable --config-dir`,
    );
  }
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

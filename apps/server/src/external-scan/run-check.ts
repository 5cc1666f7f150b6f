import type { FindingParsed, JsonObject } from "@hcs/protocol";
import type { CheckOutcome, CheckRecord, ExternalCheck } from "./check.js";
import type { FailedCheckStatus } from "./check-status.js";
import type { ScanContext } from "./context.js";
import { CONTROLS } from "./controls.js";
import { settleBefore, signalWithin } from "./deadline.js";
import { externalFinding } from "./finding.js";
import { catalogueDisagreement } from "./finding-catalogue.js";

export interface CheckRun {
  readonly record: CheckRecord;
  readonly findings: readonly FindingParsed[];
  readonly facts: JsonObject | null;
}

const STATUS_WORDS: Record<FailedCheckStatus, string> = {
  unreachable: "target unreachable",
  refused: "target refused (non-public address)",
  timeout: "no answer in time",
  error: "check failed",
};

/** The info finding that says a check could not assess its subject, so a report never passes silently over it. */
export function notAssessedFinding(
  check: ExternalCheck,
  status: FailedCheckStatus,
  detail: string,
  ctx: Pick<ScanContext, "target">,
): FindingParsed {
  const subject = check.subject === "domain" ? ctx.target.domain : ctx.target.siteHost;
  return externalFinding({
    check_id: `${check.id}.${status}`,
    subject,
    category: check.category,
    severity: "info",
    title: `${check.title} not assessed: ${STATUS_WORDS[status]}`,
    detail: `${check.title} of ${subject} could not be assessed: ${detail}.`,
    evidence: { check: check.id, status, reason: detail },
    remediation:
      status === "refused"
        ? `${subject} resolves to a private, loopback or link-local address, which the external scan never contacts. Correct the practice's DNS if this is its public site.`
        : `Make sure ${subject} answers from the internet; the check runs again with the next scan.`,
    controls: CONTROLS.evaluation,
    ...(check.subject === "site" ? { host: subject } : {}),
  });
}

/**
 * Runs one check under its own deadline and the scan's: it always settles, a throw becomes status "error", and a
 * check that did not assess gets a not-assessed finding.
 */
export async function runCheck(check: ExternalCheck, ctx: ScanContext): Promise<CheckRun> {
  const started = performance.now();
  const signal = signalWithin(ctx.signal, check.timeoutMs);
  const work = Promise.resolve()
    .then(() => check.run(ctx, signal))
    .catch((error: unknown): CheckOutcome => ({ status: "error", detail: errorDetail(error) }));
  const outcome = await settleBefore(
    work,
    signal,
    (): CheckOutcome => ({
      status: "timeout",
      detail: ctx.signal.aborted ? "the scan's time budget ran out" : `no result within ${check.timeoutMs} ms`,
    }),
  );
  const checked = outcome.status === "ok" ? withCatalogueAgreement(outcome) : outcome;
  const duration_ms = Math.round(performance.now() - started);
  const record: CheckRecord = {
    id: check.id,
    category: check.category,
    status: checked.status,
    duration_ms,
    ...(checked.detail ? { detail: checked.detail } : {}),
  };
  const findings =
    checked.status === "ok"
      ? (checked.findings ?? [])
      : [notAssessedFinding(check, checked.status, checked.detail ?? STATUS_WORDS[checked.status], ctx)];
  return { record, findings, facts: checked.facts ?? null };
}

/**
 * A finding whose severity, controls or grade cap disagree with the check catalogue is a bug in the check: the
 * check reports an error rather than a finding that would score differently from what CHECKS.md says.
 */
function withCatalogueAgreement(outcome: CheckOutcome): CheckOutcome {
  const problem = (outcome.findings ?? []).map(catalogueDisagreement).find((p) => p !== null);
  return problem ? { status: "error", detail: `finding disagrees with the check catalogue: ${problem}` } : outcome;
}

function errorDetail(error: unknown): string {
  // A bug in a check must not leak a stack into findings; the class and message are enough to find it.
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 300);
  return String(error).slice(0, 300);
}

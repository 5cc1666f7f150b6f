import { randomUUID } from "node:crypto";
import type { FindingParsed, Plan, Tier } from "@hcs/protocol";
import type { SamplePractice } from "../sample-practices/types.js";
import { createAccount } from "../services/accounts.js";
import { issueApiKey } from "../services/api-keys.js";
import type { ServiceDeps } from "../services/deps.js";
import { recordAssessment } from "../services/grades.js";
import { addPractice } from "../services/practices.js";

/** An account with one key, created through the services (what `hcs-server accounts/keys create` do). */
export async function accountWithKey(
  deps: ServiceDeps,
  o: { plan?: Plan; tier?: Tier; credits?: number; name?: string } = {},
) {
  const { account, webhookSecret } = await createAccount(deps, {
    name: o.name ?? "Test Clinic Group",
    plan: o.plan ?? "free",
    tier: o.tier ?? "standard",
    credits: o.credits ?? 500,
  });
  const key = await issueApiKey(deps, { accountId: account.id });
  return { accountId: account.id, apiKey: key.apiKey, keyId: key.keyId, webhookSecret };
}

/** A practice with one external assessment, so that it has a grade. */
export async function gradedPractice(
  deps: ServiceDeps,
  accountId: string,
  npi: string,
  findings: FindingParsed[] = [],
) {
  await addPractice(deps, { npi, name: `Practice ${npi}`, domain: `p${npi}.example`, accountId });
  return externalAssessment(deps, npi, findings);
}

/** A new external assessment of a practice added by gradedPractice (a new grade in its history). */
export function externalAssessment(deps: ServiceDeps, npi: string, findings: FindingParsed[] = []) {
  return recordAssessment(deps, {
    npi,
    source: "external",
    subject: `p${npi}.example`,
    categories: ["email_security", "application_security", "privacy_compliance"],
    findings,
    at: deps.now(),
    reference: null,
  });
}

/** An external finding: the domain publishes no DMARC record (high severity). */
export const DMARC_MISSING: FindingParsed = {
  id: "email.dmarc_missing:x",
  check_id: "email.dmarc_missing",
  source: "external",
  category: "email_security",
  severity: "high",
  title: "No DMARC",
  detail: "d",
  evidence: {},
  remediation: "r",
  controls: ["164.312(e)(1)"],
};

/**
 * A completed scan job row, as the worker leaves one (for reputation counts; with `result`, a stored JobResult such
 * as a captured run's, for reports). Returns the job id.
 */
export async function completedJobRow(
  deps: ServiceDeps,
  accountId: string,
  npi: string,
  o: { result?: unknown; completedAt?: string } = {},
): Promise<string> {
  const at = o.completedAt ?? deps.now().toISOString();
  const id = randomUUID();
  await deps.store.db
    .insertInto("jobs")
    .values({
      id,
      account_id: accountId,
      npi,
      scan_type: "full",
      status: "completed",
      callback_url: null,
      attempts: 1,
      max_attempts: 3,
      run_after: at,
      lease_owner: null,
      lease_expires_at: null,
      created_at: at,
      started_at: at,
      completed_at: at,
      duration_ms: 80,
      credits_charged: 150,
      result: o.result === undefined ? null : JSON.stringify(o.result),
      error_code: null,
      error_message: null,
    })
    .execute();
  return id;
}

/** Registers sample practices (their NPI, name, domain and website) to an account, as an operator would. */
export async function addSamplePractices(deps: ServiceDeps, practices: readonly SamplePractice[], accountId: string) {
  for (const p of practices)
    await addPractice(deps, { npi: p.npi, name: p.name, domain: p.domain, website: p.website, accountId });
}

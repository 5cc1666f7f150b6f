import type { FindingParsed } from "@hcs/protocol";
import type { CheckOutcome, ExternalCheck } from "../check.js";
import { CONTROLS } from "../controls.js";
import { externalFinding } from "../finding.js";
import { redactUrl, urlPath } from "../site/urls.js";
import type { CrawledPage } from "./crawl.js";
import type { PageForm } from "./page-analysis.js";
import { isSensitivePageKind } from "./page-kind.js";

// Field names and types that carry identity or health information.
const PHI_FIELD =
  /name|birth|dob|ssn|social|insurance|member|policy|phone|tel|mobile|email|address|zip|symptom|reason|condition|diagnos|medication|allerg|message|comment|concern|history|gender|sex/i;
const PHI_TYPES = new Set(["password", "email", "tel", "date", "textarea"]);
// A site search box is the one common form that carries nothing about the visitor.
const SEARCH_FIELD = /^(q|s|query|search|keywords?|term)$/i;

/** True when a form collects information about a patient (or a login), judged by its page and fields. */
export function isPatientForm(form: PageForm, page: Pick<CrawledPage, "kind">): boolean {
  if (form.fields.length > 0 && form.fields.every((f) => SEARCH_FIELD.test(f.name) || f.type === "search"))
    return false;
  return isSensitivePageKind(page.kind) || form.fields.some((f) => PHI_TYPES.has(f.type) || PHI_FIELD.test(f.name));
}

/** Findings about forms that submit over plain HTTP (pure): one per page. */
export function evaluateForms(siteHost: string, pages: readonly CrawledPage[]): FindingParsed[] {
  const findings: FindingParsed[] = [];
  for (const page of pages) {
    const cleartext = (page.analysis?.forms ?? []).filter((f) => new URL(f.action).protocol === "http:");
    if (cleartext.length === 0) continue;
    const patient = cleartext.filter((f) => isPatientForm(f, page));
    const path = urlPath(page.url);
    const evidence = {
      page: redactUrl(page.url),
      page_kind: page.kind,
      forms: cleartext.map((f) => ({
        action: redactUrl(f.action),
        method: f.method,
        fields: f.fields.map((x) => x.name).filter(Boolean),
      })),
    };
    const base = {
      category: "privacy_compliance",
      controls: CONTROLS.formTransport,
      subject: `${siteHost}${path}`,
      host: siteHost,
      evidence,
    } as const;
    findings.push(
      patient.length > 0
        ? externalFinding({
            ...base,
            check_id: "privacy.forms.cleartext_patient_form",
            severity: "critical",
            title: `Patient form on ${path} submits over plain HTTP`,
            detail: `A form on ${path} that collects patient information sends it to ${patient.map((f) => redactUrl(f.action)).join(", ")} unencrypted, readable and alterable by anyone on the network path.`,
            remediation: "Make the form submit to an https:// address (and serve the page itself over HTTPS only).",
            grade_cap: "cleartext_phi_form",
          })
        : externalFinding({
            ...base,
            check_id: "privacy.forms.cleartext_form",
            severity: "medium",
            title: `Form on ${path} submits over plain HTTP`,
            detail: `A form on ${path} sends its contents to ${cleartext.map((f) => redactUrl(f.action)).join(", ")} unencrypted.`,
            remediation: "Make the form submit to an https:// address.",
          }),
    );
  }
  return findings;
}

export const formsCheck: ExternalCheck = {
  id: "privacy.forms",
  category: "privacy_compliance",
  title: "Form transport security",
  subject: "site",
  timeoutMs: 30_000,
  async run(ctx): Promise<CheckOutcome> {
    const crawl = await ctx.crawl();
    if (!crawl.ok) return { status: crawl.status, detail: crawl.detail };
    const forms = crawl.pages.flatMap((p) =>
      (p.analysis?.forms ?? []).map((f) => ({ page: urlPath(p.url), action: redactUrl(f.action) })),
    );
    return { status: "ok", findings: evaluateForms(ctx.target.siteHost, crawl.pages), facts: { forms } };
  },
};

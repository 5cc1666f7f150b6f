import type { FindingParsed, Severity } from "@hcs/protocol";
import { type BaaCoverage, baaCoverage } from "./business-associate.js";
import { addYears } from "./calendar-date.js";
import type { IncidentView } from "./incident-schema.js";
import type { TrainingSummary } from "./training-status.js";

/** The 24 policies (administrative/policies/catalogue.ts). */
export const POLICY_COUNT = 24;
/**
 * An SRA or a policy more than 12 calendar months old is out of date (164.308(a)(1), (a)(8), 164.316(b)(2)(iii));
 * counted with addYears, so a leap day does not shorten it.
 */
export const REVIEW_PERIOD_YEARS = 1;

/** What the practice has recorded in HCS, as the evaluation reads it. */
export interface AdministrativeSnapshot {
  readonly today: string;
  /** Date of the latest SRA report, and of the latest questionnaire responses. */
  readonly sra_on: string | null;
  readonly questionnaire_on: string | null;
  /** Date of the latest version of each policy generated (policy number → date). */
  readonly policies: ReadonlyMap<number, string>;
  /** Null when no roster was loaded. */
  readonly training: TrainingSummary | null;
  readonly vendors: readonly {
    vendor_id: string;
    name: string;
    phi_access: boolean;
    baa_status: string;
    expires_on: string | null;
  }[];
  readonly incidents: readonly IncidentView[];
}

/** Whether the practice keeps any administrative record in HCS (before that, the category has no data). */
export function hasAdministrativeRecords(s: AdministrativeSnapshot): boolean {
  return (
    s.sra_on !== null ||
    s.questionnaire_on !== null ||
    s.policies.size > 0 ||
    s.training !== null ||
    s.vendors.length > 0 ||
    s.incidents.length > 0
  );
}

const SUBJECT = "records";
const finding = (
  check: string,
  key: string,
  severity: Severity,
  title: string,
  detail: string,
  remediation: string,
  controls: FindingParsed["controls"],
  evidence: Record<string, string | number | boolean | null> = {},
): FindingParsed => ({
  id: `administrative.${check}:${key}`,
  check_id: `administrative.${check}`,
  source: "administrative",
  category: "administrative_safeguards",
  severity,
  title,
  detail,
  evidence,
  remediation,
  controls,
});

const stale = (on: string | null, today: string) => on === null || addYears(on, REVIEW_PERIOD_YEARS) < today;

/**
 * The administrative findings of a practice (pure; docs/scoring.md "Administrative safeguards" gives the rules):
 * each is one missing or out-of-date safeguard, scored like any finding in the administrative_safeguards category.
 */
export function administrativeFindings(s: AdministrativeSnapshot): FindingParsed[] {
  const out: FindingParsed[] = [];
  if (stale(s.sra_on, s.today)) {
    out.push(
      finding(
        "sra_missing",
        SUBJECT,
        "critical",
        s.sra_on ? "Security risk assessment is more than 12 months old" : "No security risk assessment on record",
        s.sra_on
          ? `The latest SRA is dated ${s.sra_on}; an assessment older than 12 months counts as missing.`
          : "No accurate and thorough assessment of the risks to ePHI has been recorded — the requirement OCR cites most often.",
        "Answer the risk-assessment questionnaire (POST /v1/risk-assessment) and run the SRA (hipaa.sra); repeat yearly and after major changes.",
        ["164.308(a)(1)(ii)(A)", "164.308(a)(1)(ii)(B)"],
        { sra_on: s.sra_on },
      ),
    );
  }
  const current = [...s.policies.values()].filter((d) => !stale(d, s.today)).length;
  if (current < POLICY_COUNT) {
    out.push(
      finding(
        "policies_incomplete",
        SUBJECT,
        current === 0 ? "high" : "medium",
        current === 0
          ? "No current HIPAA policies"
          : `${POLICY_COUNT - current} of the 24 policies missing or out of date`,
        `${current} of ${POLICY_COUNT} policies were generated or reviewed in the last 12 months.`,
        "Generate the missing policies (POST /v1/policies/generate), have the security officer review and adopt them, and regenerate yearly.",
        ["164.316(a)", "164.316(b)(1)", "164.316(b)(2)(iii)"],
        { current, required: POLICY_COUNT },
      ),
    );
  }
  const t = s.training;
  if (t === null || t.active_members === 0) {
    out.push(
      finding(
        "training_roster_missing",
        SUBJECT,
        "high",
        "No workforce training records",
        "No workforce roster or training completion has been recorded, so training cannot be verified.",
        "Load the roster and completions (POST /v1/training/records, JSON or CSV).",
        ["164.308(a)(5)", "164.530(b)"],
      ),
    );
  } else if (t.overdue > 0) {
    out.push(
      finding(
        "training_overdue",
        SUBJECT,
        t.completion_rate < 0.8 ? "high" : "medium",
        `${t.overdue} workforce member(s) overdue for HIPAA security training`,
        `Completion rate ${Math.round(t.completion_rate * 100)}% (${t.current} of ${t.active_members} current); new hires are trained within 30 days and everyone yearly.`,
        "Train the overdue members and record the completions; send security reminders between sessions.",
        ["164.308(a)(5)", "164.308(a)(5)(ii)(A)", "164.530(b)"],
        { overdue: t.overdue, completion_rate: t.completion_rate },
      ),
    );
  }
  for (const v of s.vendors) {
    if (!v.phi_access) continue;
    const coverage: BaaCoverage = baaCoverage(v, s.today);
    if (coverage === "current") continue;
    out.push(
      finding(
        `baa_${coverage}`,
        v.vendor_id,
        coverage === "expiring" ? "low" : "high",
        coverage === "expiring"
          ? `BAA with ${v.name} expires on ${v.expires_on}`
          : coverage === "expired"
            ? `BAA with ${v.name} expired on ${v.expires_on}`
            : `No signed BAA with ${v.name}, which has access to PHI`,
        `${v.name} creates, receives, maintains or transmits PHI for the practice; a business associate needs satisfactory written assurances (a BAA) first.`,
        coverage === "expiring"
          ? "Renew the BAA before it lapses."
          : "Sign a BAA meeting 164.504(e) before any further PHI is shared, or stop sharing PHI with this vendor.",
        ["164.308(b)(1)", "164.308(b)(3)", "164.502(e)"],
        { vendor_id: v.vendor_id, coverage },
      ),
    );
  }
  for (const i of s.incidents) {
    for (const n of i.notifications) {
      if (n.status !== "overdue") continue;
      out.push(
        finding(
          "breach_notification_overdue",
          `${i.id}.${n.recipient}`,
          "high",
          `Breach notice to ${n.recipient === "hhs" ? "HHS" : n.recipient} overdue since ${n.due_on}`,
          `Incident ${i.id} (discovered ${i.discovered_on}) is a breach of unsecured PHI; ${n.basis}.`,
          n.recipient === "hhs"
            ? "Submit the breach to the Secretary at the HHS OCR breach portal now and record the date (PATCH /v1/incidents/{id})."
            : `Send the ${n.recipient === "media" ? "media notice" : "individual notices (first-class mail, content per 164.404(c))"} now and record the date.`,
          n.controls as FindingParsed["controls"],
          { incident: i.id, recipient: n.recipient, due_on: n.due_on },
        ),
      );
    }
  }
  return out;
}

export type RecordState = "met" | "partial" | "not_met" | "unknown";
export interface RecordEvidence {
  readonly state: RecordState;
  readonly detail: string;
  /** Ids of the administrative findings that hold the record back. */
  readonly findings: string[];
  readonly assessed_at: string | null;
}

/**
 * The states of the administrative records behind requirements 9–12 (pure). Before the practice keeps any record
 * in HCS they are unknown (it may keep them elsewhere); after, a missing record is not met.
 */
export function administrativeRecordStates(
  s: AdministrativeSnapshot,
  findings: readonly Pick<FindingParsed, "id" | "check_id">[],
): Record<"risk_assessment" | "policies" | "training" | "baa" | "incidents", RecordEvidence> {
  const ids = (prefix: string) =>
    findings.filter((f) => f.check_id.startsWith(`administrative.${prefix}`)).map((f) => f.id);
  const at = (d: string | null) => (d ? `${d}T00:00:00.000Z` : null);
  if (!hasAdministrativeRecords(s)) {
    const none = (what: string): RecordEvidence => ({
      state: "unknown",
      detail: `no ${what} recorded in HCS yet`,
      findings: [],
      assessed_at: null,
    });
    return {
      risk_assessment: none("risk assessment"),
      policies: none("policies"),
      training: none("training records"),
      baa: none("business associates"),
      incidents: none("incidents"),
    };
  }
  const sraCurrent = !stale(s.sra_on, s.today);
  const answeredRecently = !stale(s.questionnaire_on, s.today);
  const policyDates = [...s.policies.values()].sort();
  const currentPolicies = policyDates.filter((d) => !stale(d, s.today)).length;
  const t = s.training;
  const phiVendors = s.vendors.filter((v) => v.phi_access);
  const uncovered = phiVendors.filter((v) => ["missing", "expired"].includes(baaCoverage(v, s.today)));
  const overdue = s.incidents.filter((i) => i.overdue);
  return {
    risk_assessment: {
      state: sraCurrent ? "met" : answeredRecently ? "partial" : "not_met",
      detail: sraCurrent
        ? `SRA of ${s.sra_on} is within 12 months`
        : answeredRecently
          ? `questionnaire answered on ${s.questionnaire_on} but no SRA within 12 months`
          : s.sra_on
            ? `the latest SRA (${s.sra_on}) is more than 12 months old`
            : "no security risk assessment recorded",
      findings: ids("sra"),
      assessed_at: at(s.sra_on ?? s.questionnaire_on),
    },
    policies: {
      state: currentPolicies === POLICY_COUNT ? "met" : currentPolicies > 0 ? "partial" : "not_met",
      detail: `${currentPolicies} of ${POLICY_COUNT} policies generated or reviewed within 12 months`,
      findings: ids("policies"),
      assessed_at: at(policyDates.at(-1) ?? null),
    },
    training: {
      state:
        t === null || t.active_members === 0
          ? "not_met"
          : t.overdue === 0
            ? "met"
            : t.completion_rate >= 0.8
              ? "partial"
              : "not_met",
      detail:
        t === null || t.active_members === 0
          ? "no workforce roster loaded"
          : `${t.current} of ${t.active_members} current (${Math.round(t.completion_rate * 100)}%), ${t.overdue} overdue, ${t.due} new hire(s) due`,
      findings: ids("training"),
      assessed_at: t && t.active_members > 0 ? `${s.today}T00:00:00.000Z` : null,
    },
    baa: {
      state: phiVendors.length === 0 ? "unknown" : uncovered.length === 0 ? "met" : "not_met",
      detail:
        phiVendors.length === 0
          ? "no business associate with PHI access recorded"
          : `${phiVendors.length - uncovered.length} of ${phiVendors.length} vendors with PHI access have a current BAA`,
      findings: ids("baa"),
      assessed_at: phiVendors.length > 0 ? `${s.today}T00:00:00.000Z` : null,
    },
    incidents: {
      state: overdue.length > 0 ? "not_met" : "met",
      detail:
        s.incidents.length === 0
          ? "no incidents recorded"
          : `${s.incidents.length} incident(s) recorded, ${overdue.length} with an overdue notification`,
      findings: ids("breach"),
      assessed_at: `${s.today}T00:00:00.000Z`,
    },
  };
}

import type { HipaaControlId } from "@hcs/protocol";
import type { Answer, ResolvedAnswer } from "./answers.js";
import { QUESTIONS } from "./questionnaire.js";

/*
 * The risk model, after NIST SP 800-30 Rev. 1 as the HHS Guidance on Risk Analysis applies it: each risk is a
 * threat exploiting a vulnerability; likelihood and impact are rated on five-level scales (Appendix G and H
 * semi-quantitative values 1–5); risk = likelihood × impact (1–25), banded into four levels. The likelihood of a
 * risk starts at its inherent rating and falls as the safeguards against it are in place (answered yes: −2 each
 * step bounded at 1; partial: −1); unknown counts as not in place.
 */

export const SCALES = {
  likelihood: {
    1: "very low: highly unlikely to occur within a year",
    2: "low: unlikely to occur within a year",
    3: "moderate: somewhat likely within a year",
    4: "high: likely within a year",
    5: "very high: almost certain within a year",
  },
  impact: {
    1: "very low: negligible effect on patients or operations",
    2: "low: limited effect, a few records, quickly recovered",
    3: "moderate: serious effect, hundreds of records or a day of downtime",
    4: "high: severe effect, a reportable breach of 500 or more, or days of downtime",
    5: "very high: catastrophic, practice-wide loss of ePHI or of care delivery",
  },
  level: { low: "1–4", moderate: "5–9", high: "10–16", very_high: "17–25" },
} as const;

export type RiskLevel = "low" | "moderate" | "high" | "very_high";
export const levelOf = (score: number): RiskLevel =>
  score <= 4 ? "low" : score <= 9 ? "moderate" : score <= 16 ? "high" : "very_high";

interface RiskDefinition {
  readonly id: string;
  readonly threat: string;
  readonly vulnerability: string;
  /** Questions whose safeguards address the vulnerability. */
  readonly safeguards: readonly string[];
  readonly inherent_likelihood: 1 | 2 | 3 | 4 | 5;
  readonly impact: 1 | 2 | 3 | 4 | 5;
  readonly remediation: string;
}

export const RISKS: readonly RiskDefinition[] = [
  {
    id: "device_theft",
    threat: "Theft or loss of a laptop, workstation or removable media",
    vulnerability: "ePHI stored unencrypted",
    safeguards: ["data.encryption_at_rest", "physical.facility", "basics.asset_inventory"],
    inherent_likelihood: 4,
    impact: 5,
    remediation: "Enable full-disk encryption on every device holding ePHI and keep the asset inventory current.",
  },
  {
    id: "ransomware_unpatched",
    threat: "Ransomware or malware",
    vulnerability: "Missing security updates or unsupported software",
    safeguards: ["data.patching", "data.end_of_life", "data.segmentation"],
    inherent_likelihood: 5,
    impact: 5,
    remediation:
      "Turn on automatic updates, replace end-of-life systems, and separate ePHI systems from other networks.",
  },
  {
    id: "ransomware_no_recovery",
    threat: "Ransomware, hardware failure or disaster destroying data",
    vulnerability: "No recent, tested, offline backup",
    safeguards: ["contingency.backups", "contingency.restore_test", "contingency.emergency_mode"],
    inherent_likelihood: 4,
    impact: 5,
    remediation: "Back up daily to an offline or immutable copy and test a full restore each year.",
  },
  {
    id: "credential_phishing",
    threat: "Phishing or credential stuffing",
    vulnerability: "Accounts protected by passwords alone; untrained staff",
    safeguards: ["workforce.mfa", "workforce.training", "data.email"],
    inherent_likelihood: 5,
    impact: 4,
    remediation:
      "Require MFA for email, remote access and ePHI systems; train staff to recognise phishing; publish DMARC.",
  },
  {
    id: "interception",
    threat: "Eavesdropping on network traffic",
    vulnerability: "ePHI sent over cleartext protocols",
    safeguards: ["data.transmission"],
    inherent_likelihood: 3,
    impact: 4,
    remediation: "Use TLS 1.2 or later, SFTP or a VPN for every transfer of ePHI; retire FTP, telnet and plain HTTP.",
  },
  {
    id: "lateral_movement",
    threat: "An attacker or malware spreading inside the network",
    vulnerability: "Flat network with sensitive services reachable from every device",
    safeguards: ["data.segmentation"],
    inherent_likelihood: 3,
    impact: 4,
    remediation: "Segment clinical systems from guest and office networks and firewall sensitive services.",
  },
  {
    id: "insider_snooping",
    threat: "A workforce member viewing records without a need",
    vulnerability: "Shared accounts, excess access, unreviewed audit logs",
    safeguards: ["workforce.unique_ids", "data.audit_logs", "policies.sanctions", "workforce.access_termination"],
    inherent_likelihood: 3,
    impact: 3,
    remediation: "Give every user a unique, role-based login, review access logs monthly and apply sanctions.",
  },
  {
    id: "workforce_error",
    threat: "Workforce error (misdirected email or fax, lost paper, weak password)",
    vulnerability: "Missing or outdated training and policies",
    safeguards: ["workforce.training", "policies.written", "policies.reviewed"],
    inherent_likelihood: 4,
    impact: 3,
    remediation: "Adopt the 24 policies, train everyone on hire and yearly, and send security reminders.",
  },
  {
    id: "vendor_breach",
    threat: "A breach at a vendor holding the practice's ePHI",
    vulnerability: "Vendors without a BAA or oversight",
    safeguards: ["vendors.inventory", "vendors.baa"],
    inherent_likelihood: 3,
    impact: 4,
    remediation: "Identify every vendor with ePHI access and sign a BAA with each before sharing PHI.",
  },
  {
    id: "physical_intrusion",
    threat: "Unauthorized physical access to equipment or screens",
    vulnerability: "Unlocked server areas, unattended unlocked workstations, careless disposal",
    safeguards: ["physical.facility", "physical.workstations", "physical.disposal"],
    inherent_likelihood: 3,
    impact: 3,
    remediation: "Lock server areas, set automatic screen lock, and sanitize media before disposal.",
  },
  {
    id: "web_disclosure",
    threat: "Disclosure of PHI to third parties through the website",
    vulnerability: "Trackers on patient pages or forms over plain HTTP",
    safeguards: ["data.website"],
    inherent_likelihood: 3,
    impact: 3,
    remediation: "Remove third-party trackers from patient-facing pages and serve every form over HTTPS.",
  },
  {
    id: "unmanaged_response",
    threat: "An incident not detected, contained or reported in time",
    vulnerability: "No incident response procedure, risk plan or evaluation",
    safeguards: [
      "contingency.incident_response",
      "basics.security_official",
      "basics.risk_management_plan",
      "basics.evaluation",
      "policies.retention",
    ],
    inherent_likelihood: 3,
    impact: 4,
    remediation:
      "Name a security official, adopt the incident response and breach notification policies, and evaluate yearly.",
  },
];

export interface RiskEntry {
  readonly id: string;
  readonly threat: string;
  readonly vulnerability: string;
  readonly likelihood: number;
  readonly impact: number;
  readonly score: number;
  readonly level: RiskLevel;
  readonly controls_in_place: HipaaControlId[];
  readonly controls_missing: HipaaControlId[];
  readonly evidence: { question: string; answer: Answer; findings: string[]; source: string | null }[];
  readonly remediation: string;
}

const REDUCTION: Record<Answer, number> = { yes: 2, not_applicable: 2, partial: 1, no: 0, unknown: 0 };

/** The risk register from the reconciled answers (pure), most severe first. */
export function riskRegister(answers: readonly ResolvedAnswer[]): RiskEntry[] {
  const byQuestion = new Map(answers.map((a) => [a.question, a]));
  return RISKS.map((r): RiskEntry => {
    const resolved = r.safeguards.map((id) => byQuestion.get(id)!);
    // The likelihood falls by the mean reduction of the safeguards, so a risk with many safeguards is not favoured.
    const mean = resolved.reduce((n, a) => n + REDUCTION[a.effective], 0) / resolved.length;
    const likelihood = Math.max(1, Math.round(r.inherent_likelihood - mean));
    const score = likelihood * r.impact;
    const inPlace = new Set<HipaaControlId>();
    const missing = new Set<HipaaControlId>();
    for (const a of resolved) {
      const controls = QUESTIONS.find((q) => q.id === a.question)!.controls;
      for (const c of controls) (a.effective === "yes" || a.effective === "not_applicable" ? inPlace : missing).add(c);
    }
    for (const c of missing) inPlace.delete(c);
    return {
      id: r.id,
      threat: r.threat,
      vulnerability: r.vulnerability,
      likelihood,
      impact: r.impact,
      score,
      level: levelOf(score),
      controls_in_place: [...inPlace],
      controls_missing: [...missing],
      evidence: resolved.map((a) => ({
        question: a.question,
        answer: a.effective,
        findings: [...(a.evidence?.findings ?? [])],
        source: a.evidence?.source ?? (a.response ? "questionnaire response" : null),
      })),
      remediation: r.remediation,
    };
  }).sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** Days to remediate by level: the plan's target dates. */
export const REMEDIATION_DAYS: Record<RiskLevel, number | null> = { very_high: 30, high: 60, moderate: 90, low: null };

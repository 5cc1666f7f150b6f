/**
 * The breach-probability model, version hcs-breach-model-2026.1 (docs/breach-probability.md explains every
 * number). Pure: the caller supplies the HHS report rate and the practice's open findings.
 *
 *   λ = (reports per year for the entity type ÷ assumed population) × size multiplier × Π factor multipliers
 *   probability over 12 months = 1 − e^(−λ), capped at 0.95
 *
 * It ranks and explains; it is not an actuarial model (no loss data, no calibration against outcomes).
 */
export const BREACH_MODEL_VERSION = "hcs-breach-model-2026.1";

/**
 * Provider organisations the HHS reports are spread over. HHS publishes no count of covered entities; this is the
 * model's stated assumption (order of magnitude of US provider organisations billing under an NPI), the weakest
 * number in it, and the one an operator with better data should question first.
 */
export const ASSUMED_POPULATION: Readonly<Record<string, number>> = {
  "Healthcare Provider": 500_000,
};
export const DEFAULT_POPULATION = 500_000;

/** The portal lists breaches of 500+ records: a practice holding fewer records rarely has one to report. */
export const SIZE_MULTIPLIERS = { small: 0.5, medium: 1, large: 2.5 } as const;

export interface FactorRule {
  readonly id: string;
  readonly label: string;
  readonly multiplier: number;
  readonly rationale: string;
  /** Which open findings show the factor present. */
  matches(f: { check_id: string; grade_cap: string | null; severity: string; category: string }): boolean;
}

export const FACTOR_RULES: readonly FactorRule[] = [
  {
    id: "remote_access_exposed",
    label: "Remote access (RDP, SMB, VNC, telnet) reachable from the internet",
    multiplier: 2,
    rationale:
      "Hacking/IT incidents are most reports in the portal's recent data (738 of 853 in the 2023–24 export); exposed remote access is a leading ransomware entry point.",
    matches: (f) => f.grade_cap === "remote_access_exposed",
  },
  {
    id: "kev_unpatched",
    label: "Installed software with a vulnerability CISA lists as exploited in the wild",
    multiplier: 1.8,
    rationale: "KEV entries are being exploited now; CISA's due dates exist because attackers use them.",
    // On a scanner host, or on a version the practice's public site discloses.
    matches: (f) =>
      f.check_id === "patches.known_exploited_vulnerability" ||
      f.check_id === "app.server_disclosure.known_exploited_vulnerability",
  },
  {
    id: "no_mfa",
    label: "No multi-factor authentication evidence",
    multiplier: 1.5,
    rationale: "Stolen passwords open email and remote access; email is the second most common breach location.",
    matches: (f) => f.check_id.startsWith("mfa.") && ["critical", "high", "medium"].includes(f.severity),
  },
  {
    id: "unencrypted_ephi_device",
    label: "A device holding ePHI with an unencrypted volume",
    multiplier: 1.3,
    rationale:
      "Loss or theft of an unencrypted device is a reportable breach; an encrypted one falls under the HHS safe harbor.",
    matches: (f) => f.grade_cap === "unencrypted_ephi_device",
  },
  {
    id: "tracker_on_patient_pages",
    label: "Third-party tracking on patient-facing pages",
    multiplier: 1.5,
    rationale: "OCR treats tracking-technology disclosures as breaches; several large 2023 reports came from pixels.",
    matches: (f) => f.grade_cap === "phi_tracker_on_authenticated_page",
  },
  {
    id: "end_of_life_system",
    label: "End-of-life operating system or server software",
    multiplier: 1.3,
    rationale: "Unsupported systems keep every new vulnerability open.",
    matches: (f) => f.grade_cap === "end_of_life_system" || f.check_id === "app.server_disclosure.end_of_life",
  },
  {
    id: "weak_email_authentication",
    label: "No DMARC enforcement on the practice's email domain",
    multiplier: 1.2,
    rationale: "Spoofed mail from the practice's own domain makes phishing of staff and patients easier.",
    matches: (f) => f.check_id.startsWith("email.dmarc"),
  },
  {
    id: "missing_sra",
    label: "No current security risk assessment",
    multiplier: 1.2,
    rationale:
      "The SRA (164.308(a)(1)(ii)(A)) is where the other gaps are found; OCR cites its absence in most settlements.",
    matches: (f) =>
      /(^|[._])(sra|risk_assessment)([._]|$)/.test(f.check_id) && f.category === "administrative_safeguards",
  },
];

export interface ModelInput {
  readonly reportsPerYear: number;
  readonly entityType: string;
  readonly sizeBand: keyof typeof SIZE_MULTIPLIERS;
  readonly findings: readonly {
    finding_id: string;
    title: string;
    check_id: string;
    grade_cap: string | null;
    severity: string;
    category: string;
  }[];
}

const CAP = 0.95;
const probabilityOf = (lambda: number) => Math.min(CAP, 1 - Math.exp(-lambda));
const round = (x: number) => Math.round(x * 1e6) / 1e6;

export function bandOf(p: number): "low" | "moderate" | "elevated" | "high" {
  if (p < 0.01) return "low";
  if (p < 0.03) return "moderate";
  if (p < 0.1) return "elevated";
  return "high";
}

/** The model's estimate with each factor's multiplier, contribution and evidence. */
export function estimateBreachProbability(input: ModelInput) {
  const population = ASSUMED_POPULATION[input.entityType] ?? DEFAULT_POPULATION;
  const base = input.reportsPerYear / population;
  const sizeMultiplier = SIZE_MULTIPLIERS[input.sizeBand];
  const factors = FACTOR_RULES.map((rule) => {
    const evidence = input.findings
      .filter((f) => rule.matches(f))
      .map((f) => ({ finding_id: f.finding_id, title: f.title }));
    return { rule, present: evidence.length > 0, evidence: evidence.slice(0, 20) };
  });
  const product = factors.reduce((m, f) => (f.present ? m * f.rule.multiplier : m), 1);
  const lambda = base * sizeMultiplier * product;
  const probability = probabilityOf(lambda);
  return {
    probability: round(probability),
    band: bandOf(probability),
    baseProbability: round(probabilityOf(base * sizeMultiplier)),
    population,
    sizeMultiplier,
    factors: factors.map(({ rule, present, evidence }) => ({
      id: rule.id,
      label: rule.label,
      present,
      multiplier: rule.multiplier,
      contribution: present ? round(probability - probabilityOf(lambda / rule.multiplier)) : 0,
      rationale: rule.rationale,
      evidence,
    })),
  };
}

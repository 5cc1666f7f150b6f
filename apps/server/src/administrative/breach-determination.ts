import { z } from "zod";

/*
 * The breach risk assessment of 45 CFR 164.402 (definition of breach, paragraph (2)): an impermissible use or
 * disclosure of PHI is presumed a breach unless the practice demonstrates a low probability that the PHI has been
 * compromised, based on at least four factors. Each factor is rated from what the practice records; only four low
 * ratings rebut the presumption. The exclusions of paragraph (1) and PHI secured as HHS guidance specifies
 * (encrypted, key not compromised) are not breaches of unsecured PHI at all.
 */

export const PHI_DATA_TYPES = [
  "demographic",
  "contact",
  "insurance",
  "clinical",
  "diagnosis",
  "medication",
  "sensitive_condition",
  "ssn",
  "financial",
  "credentials",
] as const;
export type PhiDataType = (typeof PHI_DATA_TYPES)[number];

export const RECIPIENTS = [
  "workforce_member",
  "covered_entity_or_business_associate",
  "known_individual",
  "unknown",
  "public",
] as const;
export const ACQUISITION = ["not_acquired", "unknown", "acquired_or_viewed"] as const;
export const MITIGATION = ["returned_or_destroyed_with_assurance", "partial", "none"] as const;

/** Paragraph (1) exclusions: (i) good-faith workforce access, (ii) inadvertent internal disclosure, (iii) could not retain. */
export const BREACH_EXCLUSIONS = [
  "unintentional_workforce_access",
  "inadvertent_disclosure_between_authorized_persons",
  "recipient_could_not_retain",
] as const;

export const FourFactorInputSchema = z.strictObject({
  /** Factor (i): the nature and extent of the PHI — types of identifiers and the likelihood of re-identification. */
  data_types: z.array(z.enum(PHI_DATA_TYPES)).min(1).max(PHI_DATA_TYPES.length),
  /** Factor (ii): the unauthorized person who used the PHI or to whom it was disclosed. */
  recipient: z.enum(RECIPIENTS),
  /** Factor (iii): whether the PHI was actually acquired or viewed (forensic evidence). */
  acquired_or_viewed: z.enum(ACQUISITION),
  /** Factor (iv): the extent to which the risk has been mitigated. */
  mitigation: z.enum(MITIGATION),
  notes: z.string().max(4000).optional(),
});
export type FourFactorInput = z.infer<typeof FourFactorInputSchema>;

export type FactorRisk = "low" | "moderate" | "high";

export interface FactorRating {
  readonly factor: "nature_and_extent" | "unauthorized_recipient" | "acquired_or_viewed" | "mitigation";
  readonly risk: FactorRisk;
  readonly reason: string;
}

const HIGH_RISK_TYPES: readonly PhiDataType[] = ["ssn", "financial", "credentials", "sensitive_condition"];
const CLINICAL_TYPES: readonly PhiDataType[] = ["clinical", "diagnosis", "medication", "insurance"];

/** Rates the four factors (pure). */
export function rateFourFactors(a: FourFactorInput): FactorRating[] {
  const high = a.data_types.filter((t) => HIGH_RISK_TYPES.includes(t));
  const clinical = a.data_types.filter((t) => CLINICAL_TYPES.includes(t));
  const nature: FactorRating =
    high.length > 0
      ? {
          factor: "nature_and_extent",
          risk: "high",
          reason: `includes ${high.join(", ")}: usable for identity theft, fraud or harm`,
        }
      : clinical.length > 0
        ? {
            factor: "nature_and_extent",
            risk: "moderate",
            reason: `clinical information (${clinical.join(", ")}) linked to identifiable individuals`,
          }
        : { factor: "nature_and_extent", risk: "low", reason: "limited demographic or contact identifiers only" };
  const recipient: FactorRating = {
    factor: "unauthorized_recipient",
    ...(a.recipient === "workforce_member" || a.recipient === "covered_entity_or_business_associate"
      ? { risk: "low" as const, reason: "received by a person or entity itself obliged to protect PHI under HIPAA" }
      : a.recipient === "known_individual"
        ? { risk: "moderate" as const, reason: "received by a known person with no HIPAA obligation" }
        : { risk: "high" as const, reason: "recipient unknown or the PHI was made public" }),
  };
  const acquired: FactorRating = {
    factor: "acquired_or_viewed",
    ...(a.acquired_or_viewed === "not_acquired"
      ? { risk: "low" as const, reason: "forensic evidence shows the PHI was not accessed, acquired or viewed" }
      : a.acquired_or_viewed === "unknown"
        ? { risk: "high" as const, reason: "it cannot be shown that the PHI was not acquired or viewed" }
        : { risk: "high" as const, reason: "the PHI was acquired or viewed" }),
  };
  const mitigation: FactorRating = {
    factor: "mitigation",
    ...(a.mitigation === "returned_or_destroyed_with_assurance"
      ? { risk: "low" as const, reason: "returned or destroyed, with the recipient's satisfactory assurance" }
      : a.mitigation === "partial"
        ? { risk: "moderate" as const, reason: "mitigated in part" }
        : { risk: "high" as const, reason: "not mitigated" }),
  };
  return [nature, recipient, acquired, mitigation];
}

export interface DeterminationInput {
  readonly phi_involved: boolean;
  /** The PHI was secured as HHS guidance specifies (encrypted to NIST standards, key not compromised, or destroyed). */
  readonly phi_secured: boolean;
  readonly exclusion: (typeof BREACH_EXCLUSIONS)[number] | null;
  readonly risk_assessment: FourFactorInput | null;
}

export interface Determination {
  readonly determination: "incident" | "breach";
  readonly reason: string;
  readonly factors: FactorRating[] | null;
  readonly low_probability_of_compromise: boolean | null;
}

/** The determination: a security incident only, or a breach of unsecured PHI that starts the notification clock. */
export function determineBreach(input: DeterminationInput): Determination {
  if (!input.phi_involved)
    return {
      determination: "incident",
      reason: "no PHI was involved: a security incident (164.308(a)(6)), not a breach",
      factors: null,
      low_probability_of_compromise: null,
    };
  if (input.phi_secured)
    return {
      determination: "incident",
      reason: "the PHI was secured as HHS guidance specifies (unreadable to the recipient): not unsecured PHI",
      factors: null,
      low_probability_of_compromise: null,
    };
  if (input.exclusion)
    return {
      determination: "incident",
      reason: `excluded from the definition of breach by 164.402(1): ${input.exclusion.replace(/_/g, " ")}`,
      factors: null,
      low_probability_of_compromise: null,
    };
  if (!input.risk_assessment)
    return {
      determination: "breach",
      reason: "presumed a breach: no risk assessment demonstrates a low probability of compromise (164.402(2))",
      factors: null,
      low_probability_of_compromise: null,
    };
  const factors = rateFourFactors(input.risk_assessment);
  const low = factors.every((f) => f.risk === "low");
  return {
    determination: low ? "incident" : "breach",
    reason: low
      ? "all four factors of 164.402(2) are low: a low probability that the PHI has been compromised is demonstrated"
      : `a breach: ${factors
          .filter((f) => f.risk !== "low")
          .map((f) => `${f.factor.replace(/_/g, " ")} is ${f.risk} (${f.reason})`)
          .join("; ")}`,
    factors,
    low_probability_of_compromise: low,
  };
}

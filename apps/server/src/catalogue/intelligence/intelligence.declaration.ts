import {
  BreachByNameQuerySchema,
  BreachCheckSchema,
  BreachProbabilityQuerySchema,
  BreachProbabilitySchema,
  BreachQuerySchema,
  CREDIT_PRICES,
  ThreatReportSchema,
} from "@hcs/protocol";
import { declareOperation } from "../../operations/operation.js";
import { NpiInputSchema } from "../grades/grade.declaration.js";

export const breachDeclaration = declareOperation({
  id: "getBreaches",
  method: "hipaa.breach",
  group: "b",
  access: { rule: "any_key" },
  example: { npi: "1234567893" },
  summary: "HHS OCR breach-portal matches for a practice",
  description:
    "Breaches of 500 or more records reported to HHS OCR that match the practice — by its registered name and state, " +
    "or by `name` and `state` for an entity not registered here — each with a match confidence (1.0 identical name, " +
    "0.9 equal once legal suffixes and punctuation are folded, 0.8 through a d/b/a name; scaled down when the " +
    "practice's state is unknown) and the matched record; the practice's own breach records when the caller owns it; " +
    `and the dataset's size and date. Costs ${CREDIT_PRICES.breach} credits.`,
  input: BreachQuerySchema,
  output: BreachCheckSchema,
  price: { kind: "metered", operation: "breach" },
  errors: ["invalid_npi", "npi_not_found"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/breach/:npi" },
});

/**
 * hipaa.breach's REST form for an entity not registered here: the same service call, price and answer as the
 * agent method given `name` + `state` (a path segment cannot carry a name, so they are query parameters).
 */
export const breachByNameDeclaration = declareOperation({
  id: "getBreachesByName",
  group: "b",
  access: { rule: "any_key" },
  example: { name: "Riverside Family Medicine", state: "OH" },
  summary: "HHS OCR breach-portal matches for any entity, by name and state",
  description:
    "hipaa.breach for an entity that is not registered here (a practice not yet enrolled, a vendor): reports of 500 " +
    "or more records filed under `name` in `state` (both required; legal suffixes, d/b/a names, punctuation and " +
    "case folded), each with a match confidence (1.0 identical name, 0.9 normalized, 0.8 through a d/b/a name) and " +
    `the matched record; \`own_incidents\` is null. Costs ${CREDIT_PRICES.breach} credits.`,
  input: BreachByNameQuerySchema,
  output: BreachCheckSchema,
  price: { kind: "metered", operation: "breach" },
  errors: [],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/breach" },
});

export const threatsDeclaration = declareOperation({
  id: "getThreatIntelligence",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893" },
  summary: "CISA KEV entries matching a practice's software, and its sector's breaches",
  description:
    "Known Exploited Vulnerabilities that match what the practice runs — software and versions from its scanners' " +
    "uploads and versions its public servers disclose — each with the CVE, the product, where it was seen, whether " +
    "the version lies in the range the entry states (`affected`) or the entry states none (`unknown`), the KEV due " +
    "date, known ransomware use and the fix; no entry is claimed whose stated range shows the version fixed. Plus the " +
    "most common breach types and locations reported by healthcare providers in the practice's state over 24 months. " +
    `Costs ${CREDIT_PRICES.threat_intelligence} credits.`,
  input: NpiInputSchema,
  output: ThreatReportSchema,
  price: { kind: "metered", operation: "threat_intelligence" },
  errors: ["invalid_npi", "npi_not_found"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/threats/:npi" },
});

export const breachProbabilityDeclaration = declareOperation({
  id: "getBreachProbability",
  method: "hipaa.breach_probability",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893", size_band: "small" },
  summary: "12-month probability of a reportable breach for a practice",
  description:
    "A documented, versioned estimate (docs/breach-probability.md): a base rate from HHS OCR reports for the " +
    "practice's entity type and size band (`size_band`: small, medium or large; default small), multiplied by stated " +
    "factors its open findings show (exposed remote access, unpatched KEV matches, no MFA, unencrypted ePHI devices, " +
    "trackers on patient pages, end-of-life systems, weak email authentication, no current SRA). Returns the " +
    "probability, its band, each factor's multiplier, contribution and evidence, the model version and the base-rate " +
    `source. Not an actuarial model. Costs ${CREDIT_PRICES.breach_probability} credits.`,
  input: BreachProbabilityQuerySchema,
  output: BreachProbabilitySchema,
  price: { kind: "metered", operation: "breach_probability" },
  errors: ["invalid_npi", "npi_not_found"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/breach-probability/:npi" },
});

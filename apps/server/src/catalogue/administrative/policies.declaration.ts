import { CREDIT_PRICES, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { PolicyListSchema, PolicyNumberSchema } from "../../administrative/policies/policy-schemas.js";
import { PracticeProfileSchema } from "../../administrative/profile.js";
import { declareCapability, declareOperation } from "../../operations/operation.js";

export const PolicyDownloadInputSchema = z.strictObject({
  number: z.coerce.number().pipe(PolicyNumberSchema),
  format: z.enum(["markdown", "html"]).default("markdown"),
  version: z.int().min(1).max(100_000).optional(),
});

/**
 * The 24 policies of a practice: listed over both groups; an agent's call may also generate new versions
 * (`generate`, paid per document), where Group A generates through its own operation (with the practice's profile).
 */
export const policyListCapability = declareCapability(
  {
    summary: "The 24 HIPAA policies of a practice: status, version, review date, downloads",
    description:
      "Each of the 24 policies with its latest version, how many versions exist, when it is due for review and its " +
      "Markdown and HTML downloads.",
    openWorld: false,
  },
  {
    groupB: {
      id: "listPolicies",
      method: "hipaa.policies",
      access: { rule: "owner", of: "practice", field: "npi" },
      example: { npi: "1234567893" },
      summary: "The 24 HIPAA policies of a practice you own",
      description:
        "Each policy with status, version, generated_at and a download link; `generate` (policy ids 1–24) makes new " +
        `versions from the practice's facts. Free to list; ${CREDIT_PRICES.policy_document} credits per generated document.`,
      input: z.strictObject({
        npi: NpiSchema,
        generate: z.array(z.coerce.number().pipe(PolicyNumberSchema)).min(1).max(24).optional(),
      }),
      output: PolicyListSchema,
      price: {
        kind: "computed",
        operation: "policy_document",
        describe: `0 to list, ${CREDIT_PRICES.policy_document} per generated document`,
        credits: (_input: unknown, output: { generated: number[] }) =>
          output.generated.length * CREDIT_PRICES.policy_document,
      },
      errors: ["invalid_npi", "npi_not_found", "forbidden"],
      readOnly: false,
      rest: { method: "get", path: "/v1/a2a/policies/:npi" },
    },
    groupA: {
      id: "listPracticePolicies",
      summary: "The 24 HIPAA policies: status, version, review date, downloads",
      access: { rule: "owner", of: "practice", field: "npi", optional: true },
      example: { npi: "1234567893" },
      input: z.strictObject({ npi: NpiSchema.optional() }),
      output: PolicyListSchema,
      errors: ["invalid_npi", "forbidden", "not_found"],
      readOnly: true,
      rest: { method: "get", path: "/v1/policies" },
    },
  },
);

/** One policy document, as Markdown or HTML, over both groups. */
export const policyDownloadCapability = declareCapability(
  {
    summary: "One policy document of a practice, as Markdown or HTML",
    description: "The latest version, or `version`; `format` markdown (default) or html. 404 before it was generated.",
    openWorld: false,
  },
  {
    groupB: {
      id: "downloadPolicy",
      access: { rule: "owner", of: "practice", field: "npi" },
      example: { npi: "1234567893", number: 1, format: "markdown" },
      summary: "One policy document of a practice you own, as Markdown or HTML",
      description: "The latest version, or `version`; `format` markdown (default) or html. Free.",
      input: PolicyDownloadInputSchema.extend({ npi: NpiSchema }),
      output: z.string(),
      errors: ["invalid_npi", "npi_not_found", "forbidden", "not_found"],
      readOnly: true,
      rest: { method: "get", path: "/v1/a2a/policies/:npi/:number", produces: ["text/markdown", "text/html"] },
    },
    groupA: {
      id: "downloadPracticePolicy",
      access: { rule: "owner", of: "practice", field: "npi", optional: true },
      example: { npi: "1234567893", number: 1, format: "markdown" },
      summary: "One policy document as Markdown or HTML",
      input: PolicyDownloadInputSchema.extend({ npi: NpiSchema.optional() }),
      output: z.string(),
      errors: ["invalid_npi", "forbidden", "not_found"],
      readOnly: true,
      rest: { method: "get", path: "/v1/policies/:number" },
    },
  },
);

export const generatePoliciesGroupADeclaration = declareOperation({
  id: "generatePracticePolicies",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: { npi: "1234567893", policies: [1] },
  summary: "Generate new versions of the practice's policies from its facts",
  description:
    "`policies` (numbers 1–24, default all) are written from the practice's facts — name, size, the security and " +
    "privacy officials of `profile` (stored for next time), the systems the scanner saw and the business associates " +
    "recorded. Earlier versions are kept.",
  input: z.strictObject({
    npi: NpiSchema.optional(),
    policies: z.array(PolicyNumberSchema).min(1).max(24).optional(),
    profile: PracticeProfileSchema.optional(),
  }),
  output: PolicyListSchema,
  errors: ["invalid_npi", "forbidden", "not_found"],
  readOnly: false,
  openWorld: false,
  rest: { method: "post", path: "/v1/policies/generate", status: 201 },
});

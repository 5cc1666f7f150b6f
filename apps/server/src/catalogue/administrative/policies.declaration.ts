import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { PolicyListSchema, PolicyNumberSchema } from "../../administrative/policies/policy-schemas.js";
import { PracticeProfileSchema } from "../../administrative/profile.js";
import { declareOperation } from "../../operations/operation.js";

export const PolicyDownloadInputSchema = z.strictObject({
  number: z.coerce.number().pipe(PolicyNumberSchema),
  format: z.enum(["markdown", "html"]).default("markdown"),
  version: z.int().min(1).max(100_000).optional(),
});

export const listPoliciesGroupADeclaration = declareOperation({
  id: "listPracticePolicies",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: { npi: "1234567893" },
  summary: "The 24 HIPAA policies: status, version, review date, downloads",
  description:
    "Each of the 24 policies with its latest version, how many versions exist, when it is due for review and its Markdown and HTML downloads.",
  input: z.strictObject({ npi: NpiSchema.optional() }),
  output: PolicyListSchema,
  errors: ["invalid_npi", "forbidden", "not_found"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/policies" },
});

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

export const downloadPolicyGroupADeclaration = declareOperation({
  id: "downloadPracticePolicy",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: { npi: "1234567893", number: 1, format: "markdown" },
  summary: "One policy document as Markdown or HTML",
  description: "The latest version, or `version`; `format` markdown (default) or html. 404 before it was generated.",
  input: PolicyDownloadInputSchema.extend({ npi: NpiSchema.optional() }),
  output: z.string(),
  errors: ["invalid_npi", "forbidden", "not_found"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/policies/:number" },
});

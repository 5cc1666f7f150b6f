import { CREDIT_PRICES, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { PolicyListSchema, PolicyNumberSchema } from "../../administrative/policies/policy-schemas.js";
import { declareOperation } from "../../operations/operation.js";
import { PolicyDownloadInputSchema } from "./policies.declaration.js";

export const policiesDeclaration = declareOperation({
  id: "listPolicies",
  method: "hipaa.policies",
  group: "b",
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
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/policies/:npi" },
});

export const downloadPolicyDeclaration = declareOperation({
  id: "downloadPolicy",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893", number: 1, format: "markdown" },
  summary: "One policy document of a practice you own, as Markdown or HTML",
  description: "The latest version, or `version`; `format` markdown (default) or html. Free.",
  input: PolicyDownloadInputSchema.extend({ npi: NpiSchema }),
  output: z.string(),
  errors: ["invalid_npi", "npi_not_found", "forbidden", "not_found"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/policies/:npi/:number", produces: ["text/markdown", "text/html"] },
});

import { CREDIT_PRICES, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import {
  generatePolicies,
  groupBDownload,
  listPolicies,
  PolicyListSchema,
  PolicyNumberSchema,
  policyDownload,
} from "../../administrative/policies/policy-documents.js";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { defineOperation, RawBody } from "../../operations/operation.js";
import { PolicyDownloadInputSchema } from "./policies.js";

export const policiesOperation = defineOperation({
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
  implemented: true,
  rest: { method: "get", path: "/v1/a2a/policies/:npi" },
  async run({ npi, generate }, call) {
    call.setResource(`practice:${npi}`);
    if (!generate) return listPolicies(call.deps, npi, groupBDownload);
    // Paid before the documents are written: a call the balance cannot cover generates nothing.
    await call.reserve(new Set(generate).size * CREDIT_PRICES.policy_document);
    const generated = await generatePolicies(call.deps, npi, generate);
    await refreshAdministrativeAssessment(call.deps, npi);
    return listPolicies(call.deps, npi, groupBDownload, generated);
  },
});

export const downloadPolicyOperation = defineOperation({
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
  implemented: true,
  rest: { method: "get", path: "/v1/a2a/policies/:npi/:number", produces: ["text/markdown", "text/html"] },
  async run({ npi, number, format, version }, call) {
    call.setResource(`policy:${npi}:${number}`);
    const doc = await policyDownload(call.deps, npi, number, format, version);
    return new RawBody(doc.contentType, doc.body, {
      ...doc.headers,
      "Content-Disposition": `inline; filename="${doc.filename}"`,
    });
  },
});

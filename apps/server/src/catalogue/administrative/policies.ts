import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import {
  generatePolicies,
  groupADownload,
  listPolicies,
  PolicyListSchema,
  PolicyNumberSchema,
  policyDownload,
} from "../../administrative/policies/policy-documents.js";
import { PracticeProfileSchema, updateProfile } from "../../administrative/profile.js";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { defineOperation, RawBody } from "../../operations/operation.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";

export const listPoliciesGroupAOperation = defineOperation({
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
  implemented: true,
  rest: { method: "get", path: "/v1/policies" },
  async run({ npi }, call) {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
    call.setResource(`practice:${practice.npi}`);
    return listPolicies(call.deps, practice.npi, groupADownload);
  },
});

export const generatePoliciesGroupAOperation = defineOperation({
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
  implemented: true,
  rest: { method: "post", path: "/v1/policies/generate", status: 201 },
  async run({ npi, policies, profile }, call) {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
    call.setResource(`practice:${practice.npi}`);
    if (profile) await updateProfile(call.deps, practice.npi, profile);
    const generated = await generatePolicies(call.deps, practice.npi, policies ?? range24());
    await refreshAdministrativeAssessment(call.deps, practice.npi);
    return listPolicies(call.deps, practice.npi, groupADownload, generated);
  },
});

export const PolicyDownloadInputSchema = z.strictObject({
  number: z.coerce.number().pipe(PolicyNumberSchema),
  format: z.enum(["markdown", "html"]).default("markdown"),
  version: z.int().min(1).max(100_000).optional(),
});

export const downloadPolicyGroupAOperation = defineOperation({
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
  implemented: true,
  rest: { method: "get", path: "/v1/policies/:number" },
  async run({ npi, number, format, version }, call) {
    const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
    call.setResource(`policy:${practice.npi}:${number}`);
    const doc = await policyDownload(call.deps, practice.npi, number, format, version);
    return new RawBody(doc.contentType, doc.body, {
      ...doc.headers,
      "Content-Disposition": `inline; filename="${doc.filename}"`,
    });
  },
});

export const range24 = () => Array.from({ length: 24 }, (_, i) => i + 1);

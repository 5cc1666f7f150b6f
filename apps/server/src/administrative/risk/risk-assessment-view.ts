import { z } from "zod";
import { SraReportSchema } from "./sra-report.js";
export const RiskAssessmentViewSchema = z
  .object({
    npi: z.string(),
    questionnaire: z.object({
      version: z.string(),
      sections: z.array(
        z.object({
          id: z.string(),
          title: z.string(),
          questions: z.array(
            z.object({
              id: z.string(),
              text: z.string(),
              controls: z.array(z.string()),
              /** The scans' answer, when they examine the question. */
              prefill: z
                .object({ answer: z.string(), source: z.string(), detail: z.string(), findings: z.array(z.string()) })
                .nullable(),
              response: z.object({ answer: z.string(), note: z.string().optional() }).nullable(),
              /** overstates: the response claims more than the evidence shows (the evidence is used). */
              flag: z.enum(["overstates", "understates"]).nullable(),
            }),
          ),
        }),
      ),
    }),
    responses_version: z.int().nullable(),
    responses_submitted_at: z.iso.datetime().nullable(),
    /** The latest SRA; `status` current within 12 months, else expired (counts as missing), or missing. */
    assessment: z.object({
      status: z.enum(["current", "expired", "missing"]),
      report: SraReportSchema.nullable(),
    }),
  })
  .meta({
    id: "RiskAssessment",
    description: "The risk-assessment questionnaire, the practice's responses and its SRA",
  });

export type RiskAssessmentView = z.infer<typeof RiskAssessmentViewSchema>;

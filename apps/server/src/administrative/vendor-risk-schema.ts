import { z } from "zod";
export const VendorRiskSchema = z
  .object({
    npi: z.string(),
    vendors: z.array(
      z.object({
        vendor_id: z.string().nullable(),
        name: z.string(),
        domain: z.string().nullable(),
        phi_access: z.boolean(),
        baa_status: z.string().nullable(),
        baa_coverage: z.string().nullable(),
        external_grade: z.object({
          status: z.enum(["graded", "not_assessed", "not_available"]),
          grade: z.string().nullable(),
          score: z.int().nullable(),
          detail: z.string(),
          scanned_at: z.iso.datetime().nullable(),
        }),
        breach_history: z.object({
          status: z.enum(["available", "not_available"]),
          breaches: z.int().nullable(),
          detail: z.string(),
        }),
        score: z.int(),
        band: z.enum(["low", "moderate", "high", "critical"]),
        factors: z.array(z.object({ factor: z.string(), weight: z.int(), points: z.int(), value: z.string() })),
      }),
    ),
    /** Vendor domains scanned by this call (each charged as a scan). */
    domains_scanned: z.int(),
  })
  .meta({ id: "VendorRisk", description: "Risk score and band of each vendor of a practice" });

export type VendorRisk = z.infer<typeof VendorRiskSchema>;

import { CREDIT_PRICES, NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { type VendorRisk, VendorRiskSchema } from "../../administrative/vendor-risk-schema.js";
import { declareOperation } from "../../operations/operation.js";

export const vendorRiskDeclaration = declareOperation({
  id: "getVendorRisk",
  method: "hipaa.vendor_risk",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893" },
  summary: "Risk of the vendors of a practice you own",
  description:
    "Per vendor recorded with hipaa.baa (or only `vendor_domain`): risk score (0–100) and band, BAA status, the " +
    "external grade of its domain (the external scan engine; a grade is reused for 30 days, else the domain is " +
    "scanned now, at most five per call), breach history (the imported HHS OCR reports filed under its name) and the " +
    "factors with their points (docs/administrative.md). Costs " +
    `${CREDIT_PRICES.vendor_risk} credits, plus ${CREDIT_PRICES.full_scan} for each vendor domain scanned.`,
  input: z.strictObject({
    npi: NpiSchema,
    vendor_domain: z
      .string()
      .trim()
      .toLowerCase()
      .max(253)
      .regex(/^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/, "a domain name")
      .optional(),
  }),
  output: VendorRiskSchema,
  price: {
    kind: "computed",
    operation: "vendor_risk",
    describe: `${CREDIT_PRICES.vendor_risk}, plus ${CREDIT_PRICES.full_scan} per vendor domain scanned`,
    credits: (_input: unknown, output: VendorRisk) =>
      CREDIT_PRICES.vendor_risk + output.domains_scanned * CREDIT_PRICES.full_scan,
  },
  errors: ["invalid_npi", "npi_not_found", "forbidden"],
  // It stores the grades of the vendor domains it scans, and each scan is paid for.
  readOnly: false,
  openWorld: true,
  rest: { method: "get", path: "/v1/a2a/vendor-risk/:npi" },
});

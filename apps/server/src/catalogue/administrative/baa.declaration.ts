import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { BusinessAssociateSchema } from "../../administrative/business-associate.js";
import { BusinessAssociatesSchema } from "../../administrative/business-associates.js";
import { declareOperation } from "../../operations/operation.js";

const BaaInputSchema = z
  .strictObject({
    npi: NpiSchema,
    action: z.enum(["list", "upsert", "remove"]).default("list"),
    vendor: BusinessAssociateSchema.optional(),
    vendor_id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/)
      .optional(),
  })
  .refine((i) => i.action !== "upsert" || i.vendor !== undefined, {
    message: "upsert needs `vendor`",
    path: ["vendor"],
  })
  .refine((i) => i.action !== "remove" || i.vendor_id !== undefined, {
    message: "remove needs `vendor_id`",
    path: ["vendor_id"],
  });

export const baaDeclaration = declareOperation({
  id: "manageBusinessAssociates",
  method: "hipaa.baa",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893", action: "list" },
  summary: "Business associates of a practice you own and their BAAs",
  description:
    "`action` list (default), upsert (`vendor`: name, domain?, services, phi_access, baa_status signed|pending|none|" +
    "terminated, signed_on, expires_on; keyed by `vendor_id`, derived from the name when absent) or remove " +
    "(`vendor_id`). Answers the list with each BAA's state today (current, expiring within 30 days, expired, missing). " +
    "Vendors with PHI access and no current BAA count against the administrative grade. Free.",
  input: BaaInputSchema,
  output: BusinessAssociatesSchema,
  errors: ["invalid_npi", "npi_not_found", "forbidden", "not_found"],
  readOnly: false,
  destructive: true,
  openWorld: false,
  rest: { method: "post", path: "/v1/a2a/baa/:npi" },
});

import { z } from "zod";
import { CategoryNameSchema, SeveritySchema, SourceSchema } from "./categories.js";
import { HipaaControlIdSchema } from "./hipaa/controls.js";
import { JsonObjectSchema } from "./json.js";
import { GradeCapIdSchema } from "./scoring/caps.js";

const text = (max: number) => z.string().min(1).max(max);

/**
 * A finding as a check or scanner phase produces it. `id` is stable for the same problem on the same
 * subject across scans (check id plus subject), which is what lets the server track first_seen/last_seen.
 */
export const FindingInputSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(200)
      // No regex flags: a JSON Schema pattern has none (upper case, as in CVE ids, is written into the class).
      .regex(/^[A-Za-z0-9_.:\-/[\]@]+$/, "id: letters, digits and _ . : - / [ ] @ only"),
    check_id: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[a-z0-9_.]+$/, "check_id: lower-case letters, digits, _ and . only"),
    source: SourceSchema,
    category: CategoryNameSchema,
    severity: SeveritySchema,
    title: text(200),
    detail: text(2000),
    evidence: JsonObjectSchema.default({}),
    remediation: text(2000),
    controls: z.array(HipaaControlIdSchema).min(1).max(10),
    host: z.string().min(1).max(255).optional(),
    grade_cap: GradeCapIdSchema.optional(),
  })
  .meta({ id: "FindingInput", description: "A finding as produced by an external check or a scanner phase" });
export type FindingInput = z.input<typeof FindingInputSchema>;
export type FindingParsed = z.output<typeof FindingInputSchema>;

/** A stored finding as the API returns it. */
export const FindingSchema = FindingInputSchema.extend({
  first_seen: z.iso.datetime(),
  last_seen: z.iso.datetime(),
}).meta({ id: "Finding", description: "A finding with the times it was first and last seen" });
export type Finding = z.infer<typeof FindingSchema>;

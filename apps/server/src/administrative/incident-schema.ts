import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { BREACH_EXCLUSIONS, FourFactorInputSchema } from "./breach-determination.js";
import { CalendarDateSchema } from "./calendar-date.js";

/** Incident categories, as the HHS breach portal classifies breaches (plus the security incidents short of one). */
export const INCIDENT_CATEGORIES = [
  "hacking_it_incident",
  "unauthorized_access_disclosure",
  "theft",
  "loss",
  "improper_disposal",
  "malware",
  "phishing",
  "other",
] as const;
export const INCIDENT_STATUSES = ["open", "contained", "closed"] as const;

const StateCode = z.string().regex(/^[A-Z]{2}$/, "a two-letter State or jurisdiction code");
const NotificationsSentSchema = z.strictObject({
  individuals_on: CalendarDateSchema.nullable().optional(),
  hhs_on: CalendarDateSchema.nullable().optional(),
  media_on: CalendarDateSchema.nullable().optional(),
});

/**
 * What the practice records about an incident. Free text must describe the event, never the patients: HCS keeps
 * no PHI (docs/administrative.md).
 */
const IncidentFields = {
  title: z.string().trim().min(1).max(200),
  summary: z.string().max(4000).optional(),
  category: z.enum(INCIDENT_CATEGORIES),
  discovered_on: CalendarDateSchema,
  occurred_on: CalendarDateSchema.optional(),
  phi_involved: z.boolean(),
  /** Secured as HHS guidance specifies: encrypted (NIST SP 800-111 / 800-52) with the key not compromised, or destroyed. */
  phi_secured: z.boolean().default(false),
  exclusion: z.enum(BREACH_EXCLUSIONS).nullable().default(null),
  individuals_affected: z.int().min(0).max(400_000_000).default(0),
  residents_by_state: z.record(StateCode, z.int().min(0).max(400_000_000)).default({}),
  risk_assessment: FourFactorInputSchema.nullable().default(null),
  law_enforcement_delay_days: z.int().min(0).max(365).default(0),
  notifications_sent: NotificationsSentSchema.default({}),
  status: z.enum(INCIDENT_STATUSES).default("open"),
};

/** Checks that hold between fields, on a whole record (created, or patched). */
function consistent(r: z.output<typeof IncidentRecordSchema>, ctx: z.RefinementCtx) {
  if (r.occurred_on && r.occurred_on > r.discovered_on)
    ctx.addIssue({ code: "custom", path: ["occurred_on"], message: "occurred_on is after discovered_on" });
  const residents = Object.values(r.residents_by_state).reduce((a, b) => a + b, 0);
  if (residents > r.individuals_affected)
    ctx.addIssue({ code: "custom", path: ["residents_by_state"], message: "more residents than individuals_affected" });
  for (const [k, v] of Object.entries(r.notifications_sent)) {
    if (v && v < r.discovered_on)
      ctx.addIssue({ code: "custom", path: ["notifications_sent", k], message: "a notice sent before discovery" });
  }
}

export const IncidentRecordSchema = z.strictObject(IncidentFields);
export type IncidentRecord = z.output<typeof IncidentRecordSchema>;
export const CheckedIncidentRecordSchema = IncidentRecordSchema.superRefine(consistent);

export const CreateIncidentInputSchema = z
  .strictObject({ npi: NpiSchema.optional(), ...IncidentFields })
  .superRefine((r, ctx) => consistent(r, ctx));

const IncidentId = z.string().regex(/^inc_[0-9a-f]{16}$/, "an incident id");
export const IncidentIdInputSchema = z.strictObject({ id: IncidentId });

/** A PATCH: any of the fields, at least one; the result is checked whole. */
export const PatchIncidentInputSchema = z
  .strictObject({
    id: IncidentId,
    // A field left out keeps its value: the defaults of a new record do not apply to a change.
    ...Object.fromEntries(
      Object.entries(IncidentFields).map(([k, v]) => [k, (v instanceof z.ZodDefault ? v.unwrap() : v).optional()]),
    ),
  })
  .refine((p) => Object.keys(p).length > 1, { message: "send at least one field to change" });

export const ListIncidentsInputSchema = z.strictObject({
  npi: NpiSchema.optional(),
  status: z.enum(INCIDENT_STATUSES).optional(),
});

const DutySchema = z.object({
  recipient: z.enum(["individuals", "hhs", "media"]),
  required: z.boolean(),
  due_on: z.string().nullable(),
  sent_on: z.string().nullable(),
  status: z.enum(["not_required", "pending", "overdue", "sent", "sent_late"]),
  days_remaining: z.int().nullable(),
  basis: z.string(),
  controls: z.array(z.string()),
});

export const IncidentViewSchema = z
  .object({
    id: z.string(),
    npi: z.string(),
    ...IncidentRecordSchema.shape,
    determination: z.object({
      determination: z.enum(["incident", "breach"]),
      reason: z.string(),
      factors: z
        .array(z.object({ factor: z.string(), risk: z.enum(["low", "moderate", "high"]), reason: z.string() }))
        .nullable(),
      low_probability_of_compromise: z.boolean().nullable(),
    }),
    /** The notification clock (a breach only; empty for an incident). */
    notifications: z.array(DutySchema),
    overdue: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Incident", description: "A security incident with its breach assessment and notification clock" });
export type IncidentView = z.infer<typeof IncidentViewSchema>;

export const IncidentListSchema = z.object({ npi: z.string(), incidents: z.array(IncidentViewSchema) });

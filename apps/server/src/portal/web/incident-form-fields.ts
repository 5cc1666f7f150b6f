import { z } from "zod";
import { ACQUISITION, MITIGATION, PHI_DATA_TYPES, RECIPIENTS } from "../../administrative/breach-determination.js";
import type { IncidentView } from "../../administrative/incident-schema.js";

/**
 * The incident form as strings (what the browser posts and what the page shows again after an error), and its
 * translation to the record the incident operations take. Pure. Checkboxes of the PHI types are one field each
 * (`data_type_<type>`) because the portal's form reader keeps one value per name.
 */
export type IncidentFormValues = Readonly<Record<string, string>>;

const Text = (max: number) => z.string().max(max).default("");
const Count = (label: string, max: number) =>
  z
    .string()
    .trim()
    .default("")
    .refine((v) => v === "" || (/^\d+$/.test(v) && Number(v) <= max), `${label}: a whole number up to ${max}`);

/** What the form may carry (any other field is refused); the operation's own schema checks the record. */
export const IncidentFormSchema = z.strictObject({
  title: Text(200),
  summary: Text(4000),
  category: Text(40),
  status: Text(20),
  discovered_on: Text(10),
  occurred_on: Text(10),
  phi_involved: z.enum(["yes", "no"], { error: "Say whether PHI was involved." }),
  phi_secured: z.literal("on").optional(),
  exclusion: Text(60),
  individuals_affected: Count("Individuals affected", 400_000_000),
  residents_by_state: Text(2000),
  law_enforcement_delay_days: Count("Law enforcement delay", 365),
  recipient: Text(60),
  acquired_or_viewed: Text(60),
  mitigation: Text(60),
  assessment_notes: Text(4000),
  individuals_on: Text(10),
  hhs_on: Text(10),
  media_on: Text(10),
  ...Object.fromEntries(PHI_DATA_TYPES.map((t) => [`data_type_${t}`, z.literal("on").optional()])),
});

/** A form problem the page shows above the form, with the answers kept. */
export class IncidentFormError extends Error {}

/** "CA=120, NV 3" → { CA: 120, NV: 3 }; the operation checks the codes and the sum. */
export function residentsOf(text: string): Record<string, number> {
  const residents: Record<string, number> = {};
  for (const part of text.split(/[,;\n]/)) {
    const entry = part.trim();
    if (entry === "") continue;
    const m = /^([A-Za-z]{2})\s*[=: ]\s*(\d{1,9})$/.exec(entry);
    if (!m) throw new IncidentFormError(`Residents by State: write each as a code and a count, e.g. "CA=120".`);
    residents[m[1]!.toUpperCase()] = Number(m[2]);
  }
  return residents;
}

const orNull = (v: string | undefined) => (v ? v : null);

/** The record the form describes, in the shape of createIncident's input (without the practice). */
export function incidentInputOf(form: z.output<typeof IncidentFormSchema>) {
  const fields = form as Record<string, string | undefined>;
  const dataTypes = PHI_DATA_TYPES.filter((t) => fields[`data_type_${t}`] === "on");
  const assessed = dataTypes.length > 0 || form.recipient || form.acquired_or_viewed || form.mitigation;
  return {
    title: form.title,
    ...(form.summary.trim() ? { summary: form.summary } : {}),
    category: form.category,
    status: form.status || "open",
    discovered_on: form.discovered_on,
    ...(form.occurred_on ? { occurred_on: form.occurred_on } : {}),
    phi_involved: form.phi_involved === "yes",
    phi_secured: form.phi_secured === "on",
    exclusion: orNull(form.exclusion),
    individuals_affected: Number(form.individuals_affected || 0),
    residents_by_state: residentsOf(form.residents_by_state),
    law_enforcement_delay_days: Number(form.law_enforcement_delay_days || 0),
    risk_assessment: assessed
      ? {
          data_types: dataTypes,
          recipient: form.recipient,
          acquired_or_viewed: form.acquired_or_viewed,
          mitigation: form.mitigation,
          ...(form.assessment_notes.trim() ? { notes: form.assessment_notes } : {}),
        }
      : null,
    notifications_sent: {
      individuals_on: orNull(form.individuals_on),
      hhs_on: orNull(form.hhs_on),
      media_on: orNull(form.media_on),
    },
  };
}

/** The form filled in with a recorded incident (the edit page). */
export function incidentFormValuesOf(i: IncidentView): IncidentFormValues {
  const a = i.risk_assessment;
  return {
    title: i.title,
    summary: i.summary ?? "",
    category: i.category,
    status: i.status,
    discovered_on: i.discovered_on,
    occurred_on: i.occurred_on ?? "",
    phi_involved: i.phi_involved ? "yes" : "no",
    ...(i.phi_secured ? { phi_secured: "on" } : {}),
    exclusion: i.exclusion ?? "",
    individuals_affected: String(i.individuals_affected),
    residents_by_state: Object.entries(i.residents_by_state)
      .map(([k, v]) => `${k}=${v}`)
      .join(", "),
    law_enforcement_delay_days: String(i.law_enforcement_delay_days),
    recipient: a?.recipient ?? "",
    acquired_or_viewed: a?.acquired_or_viewed ?? "",
    mitigation: a?.mitigation ?? "",
    assessment_notes: a?.notes ?? "",
    individuals_on: i.notifications_sent.individuals_on ?? "",
    hhs_on: i.notifications_sent.hhs_on ?? "",
    media_on: i.notifications_sent.media_on ?? "",
    ...Object.fromEntries((a?.data_types ?? []).map((t) => [`data_type_${t}`, "on"])),
  };
}

export const INCIDENT_CHOICES = { recipients: RECIPIENTS, acquisition: ACQUISITION, mitigation: MITIGATION } as const;

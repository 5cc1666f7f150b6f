import { BREACH_EXCLUSIONS, PHI_DATA_TYPES } from "../../administrative/breach-determination.js";
import type { IncidentView } from "../../administrative/incident-schema.js";
import { INCIDENT_CATEGORIES, INCIDENT_STATUSES } from "../../administrative/incident-schema.js";
import { INCIDENT_CHOICES, type IncidentFormValues } from "../web/incident-form-fields.js";
import { CsrfField, Notice, PortalPage, type Viewer } from "./layout.js";
import { NotificationClock } from "./notification-clock.js";

const words = (v: string) => v.replace(/_/g, " ");

function Choice({
  name,
  label,
  options,
  values,
  empty,
}: {
  name: string;
  label: string;
  options: readonly string[];
  values: IncidentFormValues;
  empty?: string;
}) {
  return (
    <label>
      {label}
      <select name={name}>
        {empty !== undefined && (
          <option value="" selected={!values[name]}>
            {empty}
          </option>
        )}
        {options.map((o) => (
          <option value={o} selected={values[name] === o}>
            {words(o)}
          </option>
        ))}
      </select>
    </label>
  );
}

function DateField({ name, label, values }: { name: string; label: string; values: IncidentFormValues }) {
  return (
    <label>
      {label}
      <input type="date" name={name} value={values[name] ?? ""} />
    </label>
  );
}

/**
 * Recording a new incident, or moving one on (assessment, notices sent, status), with its determination and
 * notification clock when it is recorded. The answers come back as typed after an error.
 */
export function IncidentFormPage({
  viewer,
  practiceName,
  incident,
  values,
  error,
  notice,
}: {
  viewer: Viewer;
  practiceName: string;
  incident: IncidentView | null;
  values: IncidentFormValues;
  error?: string;
  notice?: string;
}) {
  const npi = viewer.npi!;
  const action = incident
    ? `/portal/practices/${npi}/incidents/${incident.id}`
    : `/portal/practices/${npi}/incidents/new`;
  return (
    <PortalPage
      title={incident ? `Incident · ${incident.title}` : `Record an incident · ${practiceName}`}
      viewer={viewer}
      active="records"
    >
      <p>
        <a href={`/portal/practices/${npi}/records`}>Back to records</a>
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      {notice && <Notice kind="ok">{notice}</Notice>}
      {incident && (
        <section class="card">
          <h2>Assessment and notification clock</h2>
          <p>
            <strong>{incident.determination.determination === "breach" ? "Breach" : "Security incident"}</strong>:{" "}
            {incident.determination.reason}
          </p>
          <NotificationClock duties={incident.notifications} />
        </section>
      )}
      <form method="post" action={action} class="card record-form">
        <CsrfField token={viewer.csrf} />
        <h2>{incident ? "Update the incident" : "What happened"}</h2>
        <p class="muted small">Describe the event, never a patient: HCS keeps no patient information.</p>
        <label>
          Title
          <input name="title" required maxlength={200} value={values.title ?? ""} />
        </label>
        <label>
          Summary
          <textarea name="summary" rows={3} maxlength={4000}>
            {values.summary ?? ""}
          </textarea>
        </label>
        <div class="row">
          <Choice name="category" label="Category" options={INCIDENT_CATEGORIES} values={values} />
          <Choice name="status" label="Status" options={INCIDENT_STATUSES} values={values} />
          <DateField name="discovered_on" label="Discovered on" values={values} />
          <DateField name="occurred_on" label="Occurred on (if known)" values={values} />
        </div>
        <fieldset>
          <legend>Protected health information</legend>
          <div class="row">
            <label>
              <span>
                <input type="radio" name="phi_involved" value="yes" checked={values.phi_involved === "yes"} /> PHI was
                involved
              </span>
            </label>
            <label>
              <span>
                <input type="radio" name="phi_involved" value="no" checked={values.phi_involved !== "yes"} /> No PHI
                involved
              </span>
            </label>
            <label>
              <span>
                <input type="checkbox" name="phi_secured" checked={values.phi_secured === "on"} /> Secured (encrypted,
                key not compromised, or destroyed)
              </span>
            </label>
          </div>
          <div class="row">
            <Choice
              name="exclusion"
              label="Exclusion of 164.402(1)"
              options={BREACH_EXCLUSIONS}
              values={values}
              empty="none applies"
            />
            <label>
              Individuals affected
              <input name="individuals_affected" inputmode="numeric" value={values.individuals_affected ?? "0"} />
            </label>
            <label>
              Residents by State (e.g. CA=120, NV=3)
              <input name="residents_by_state" value={values.residents_by_state ?? ""} />
            </label>
            <label>
              Law enforcement delay (days)
              <input
                name="law_enforcement_delay_days"
                inputmode="numeric"
                value={values.law_enforcement_delay_days ?? "0"}
              />
            </label>
          </div>
        </fieldset>
        <fieldset>
          <legend>Four-factor risk assessment (164.402(2))</legend>
          <p class="muted small">Kinds of information involved:</p>
          <div class="row">
            {PHI_DATA_TYPES.map((t) => (
              <label>
                <span>
                  <input type="checkbox" name={`data_type_${t}`} checked={values[`data_type_${t}`] === "on"} />{" "}
                  {words(t)}
                </span>
              </label>
            ))}
          </div>
          <div class="row">
            <Choice
              name="recipient"
              label="Who received it"
              options={INCIDENT_CHOICES.recipients}
              values={values}
              empty="not assessed"
            />
            <Choice
              name="acquired_or_viewed"
              label="Acquired or viewed"
              options={INCIDENT_CHOICES.acquisition}
              values={values}
              empty="not assessed"
            />
            <Choice
              name="mitigation"
              label="Mitigation"
              options={INCIDENT_CHOICES.mitigation}
              values={values}
              empty="not assessed"
            />
          </div>
          <label>
            Assessment notes
            <textarea name="assessment_notes" rows={2} maxlength={4000}>
              {values.assessment_notes ?? ""}
            </textarea>
          </label>
        </fieldset>
        <fieldset>
          <legend>Notices sent</legend>
          <div class="row">
            <DateField name="individuals_on" label="Individuals notified on" values={values} />
            <DateField name="hhs_on" label="HHS notified on" values={values} />
            <DateField name="media_on" label="Media notified on" values={values} />
          </div>
        </fieldset>
        <button type="submit">{incident ? "Save changes" : "Record incident"}</button>
      </form>
    </PortalPage>
  );
}

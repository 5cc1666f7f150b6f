import { CsrfField, Notice, PortalPage, type Viewer } from "./layout.js";

/** The restore-test form as strings, kept as typed after an error. */
export type RestoreTestFormValues = Readonly<Record<string, string>>;

/**
 * Recording a restore test (contingency plan testing): the day, the system (a scanner host's name counts for that
 * host), what was restored, how long until the data was usable, and whether it worked. Requirement 6 reads it.
 */
export function RestoreTestFormPage({
  viewer,
  practiceName,
  values,
  error,
}: {
  viewer: Viewer;
  practiceName: string;
  values: RestoreTestFormValues;
  error?: string;
}) {
  const npi = viewer.npi!;
  return (
    <PortalPage title={`Record a restore test · ${practiceName}`} viewer={viewer} active="records">
      <p>
        <a href={`/portal/practices/${npi}/records`}>Back to records</a>
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      <form method="post" action={`/portal/practices/${npi}/restore-tests/new`} class="card record-form">
        <CsrfField token={viewer.csrf} />
        <h2>New restore test</h2>
        <p class="muted small">
          Restore a system's backup, time it until the data is usable, and record it here. A test counts for a scanner
          host when the system is named by its host name. Describe systems and data, never patients.
        </p>
        <div class="row">
          <label>
            Tested on
            <input type="date" name="tested_on" required value={values.tested_on ?? ""} />
          </label>
          <label>
            System
            <input name="system" required maxlength={200} placeholder="ehr-server" value={values.system ?? ""} />
          </label>
        </div>
        <label>
          Data restored
          <input
            name="data_restored"
            required
            maxlength={500}
            placeholder="EHR database and scanned documents"
            value={values.data_restored ?? ""}
          />
        </label>
        <div class="row">
          <label>
            Time to restore (hours)
            <input
              type="number"
              name="hours"
              required
              min="0.1"
              step="0.1"
              inputmode="decimal"
              value={values.hours ?? ""}
            />
          </label>
          <label>
            Outcome
            <select name="outcome">
              <option value="succeeded" selected={(values.outcome ?? "succeeded") === "succeeded"}>
                the data came back usable
              </option>
              <option value="failed" selected={values.outcome === "failed"}>
                the restore failed
              </option>
            </select>
          </label>
        </div>
        <p>
          <button type="submit">Record the restore test</button>
        </p>
      </form>
    </PortalPage>
  );
}

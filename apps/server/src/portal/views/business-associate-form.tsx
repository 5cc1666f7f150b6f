import { BAA_STATUSES } from "../../administrative/business-associate.js";
import type { BusinessAssociates } from "../../administrative/business-associates.js";
import { CsrfField, Notice, PortalPage, type Viewer } from "./layout.js";
import { Pill } from "./pill.js";

/** The business associate form as strings, kept as typed after an error. */
export type BusinessAssociateFormValues = Readonly<Record<string, string>>;

type Recorded = BusinessAssociates["business_associates"][number];

/** Adding a business associate, or editing one and its BAA dates, with the agreement's coverage today. */
export function BusinessAssociateFormPage({
  viewer,
  practiceName,
  recorded,
  values,
  error,
  notice,
}: {
  viewer: Viewer;
  practiceName: string;
  recorded: Recorded | null;
  values: BusinessAssociateFormValues;
  error?: string;
  notice?: string;
}) {
  const npi = viewer.npi!;
  const action = recorded
    ? `/portal/practices/${npi}/business-associates/${recorded.vendor_id}`
    : `/portal/practices/${npi}/business-associates/new`;
  return (
    <PortalPage
      title={recorded ? `Business associate · ${recorded.name}` : `Add a business associate · ${practiceName}`}
      viewer={viewer}
      active="records"
    >
      <p>
        <a href={`/portal/practices/${npi}/records`}>Back to records</a>
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      {notice && <Notice kind="ok">{notice}</Notice>}
      {recorded && (
        <section class="card">
          <h2>Agreement today</h2>
          <p>
            <Pill state={recorded.coverage} />
            {recorded.expires_on && <span class="muted small"> until {recorded.expires_on}</span>}
            {recorded.phi_access ? "" : <span class="muted small"> · no PHI access: no BAA needed</span>}
          </p>
        </section>
      )}
      <form method="post" action={action} class="card record-form">
        <CsrfField token={viewer.csrf} />
        <h2>{recorded ? "Edit the business associate" : "New business associate"}</h2>
        <label>
          Name
          <input name="name" required maxlength={200} value={values.name ?? ""} />
        </label>
        <div class="row">
          <label>
            Web domain (optional)
            <input name="domain" maxlength={253} placeholder="vendor.example" value={values.domain ?? ""} />
          </label>
          <label>
            Services (comma-separated)
            <input name="services" maxlength={2000} value={values.services ?? ""} />
          </label>
        </div>
        <label>
          <span>
            <input type="checkbox" name="phi_access" checked={values.phi_access === "on"} /> Creates, receives, keeps or
            sends PHI for the practice
          </span>
        </label>
        <fieldset>
          <legend>Business associate agreement</legend>
          <div class="row">
            <label>
              State
              <select name="baa_status">
                {BAA_STATUSES.map((s) => (
                  <option value={s} selected={(values.baa_status ?? "none") === s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Signed on
              <input type="date" name="signed_on" value={values.signed_on ?? ""} />
            </label>
            <label>
              Expires on
              <input type="date" name="expires_on" value={values.expires_on ?? ""} />
            </label>
          </div>
        </fieldset>
        <button type="submit">{recorded ? "Save changes" : "Add business associate"}</button>
      </form>
      {recorded && (
        <form method="post" action={`${action}/remove`} class="card record-form">
          <CsrfField token={viewer.csrf} />
          <h2>Remove</h2>
          <p class="muted small">
            Takes {recorded.name} and its agreement dates out of the practice's records (the audit log keeps the
            change). Remove a vendor that no longer works for the practice; a vendor whose agreement ended stays on
            record as terminated.
          </p>
          <label>
            <span>
              <input type="checkbox" name="confirm" value="yes" required /> Remove {recorded.name}
            </span>
          </label>
          <button type="submit" class="danger">
            Remove business associate
          </button>
        </form>
      )}
    </PortalPage>
  );
}

import type { BusinessAssociates } from "../../administrative/business-associates.js";
import type { IncidentView } from "../../administrative/incident-schema.js";
import type { PolicyList } from "../../administrative/policies/policy-schemas.js";
import type { TrainingStatus } from "../../administrative/training-schemas.js";
import type { RestoreTestView } from "../../readiness/restore-tests-schema.js";
import { can, PortalRoleSchema } from "../roles.js";
import { Notice, PortalPage, type Viewer } from "./layout.js";
import { Pill } from "./pill.js";
import { PoliciesSection, type PolicyChanges } from "./policies-section.js";

/** The practice's administrative records at a glance: incidents and their clocks, training, BAAs, policies. */
export function RecordsPage({
  viewer,
  practiceName,
  incidents,
  training,
  associates,
  restoreTests,
  policies,
  policyChanges,
  notice,
}: {
  viewer: Viewer;
  practiceName: string;
  incidents: readonly IncidentView[];
  training: TrainingStatus;
  associates: BusinessAssociates;
  restoreTests: readonly RestoreTestView[];
  policies: PolicyList;
  policyChanges: PolicyChanges;
  /** What the change that redirected here did (e.g. a business associate removed). */
  notice?: string;
}) {
  const npi = viewer.npi!;
  // Owners and managers keep the records (incidents, roster, business associates); viewers only read.
  const role = PortalRoleSchema.safeParse(viewer.role);
  const canEdit = role.success && can(role.data, "change_records");
  return (
    <PortalPage title={`Records · ${practiceName}`} viewer={viewer} active="records">
      {notice && <Notice kind="ok">{notice}</Notice>}
      <section class="card">
        <h2>Incidents and the notification clock</h2>
        {canEdit && (
          <p>
            <a class="button" href={`/portal/practices/${npi}/incidents/new`}>
              Record an incident
            </a>
          </p>
        )}
        {incidents.length === 0 ? (
          <p class="muted">No incidents recorded.</p>
        ) : (
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Incident</th>
                <th scope="col">Discovered</th>
                <th scope="col">Assessment</th>
                <th scope="col">Notifications</th>
              </tr>
            </thead>
            <tbody>
              {incidents.map((i) => (
                <tr>
                  <td>
                    {canEdit ? <a href={`/portal/practices/${npi}/incidents/${i.id}`}>{i.title}</a> : i.title}
                    <span class="muted small"> · {i.status}</span>
                  </td>
                  <td>{i.discovered_on}</td>
                  <td>{i.determination.determination}</td>
                  <td>
                    {i.notifications.length === 0
                      ? "—"
                      : i.notifications.map((n) => (
                          <div>
                            {n.recipient}: <Pill state={n.status} />
                            {n.due_on && <span class="muted small"> due {n.due_on}</span>}
                            {n.days_remaining !== null && n.status === "pending" && (
                              <span class="muted small"> ({n.days_remaining} days left)</span>
                            )}
                          </div>
                        ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="cards">
        <div class="card">
          <h2>Training</h2>
          {training.active_members === 0 ? (
            <p class="muted">No workforce roster uploaded yet.</p>
          ) : (
            <>
              <p class="big">{Math.round(training.completion_rate * 100)}%</p>
              <p class="muted small">
                {training.current} current, {training.due} due, {training.overdue} overdue of {training.active_members}{" "}
                people (as of {training.as_of})
              </p>
            </>
          )}
          {canEdit && (
            <p>
              <a href={`/portal/practices/${npi}/training/roster`}>Upload the training roster</a>
            </p>
          )}
        </div>
        <div class="card">
          <h2>Business associates</h2>
          {associates.business_associates.length === 0 ? (
            <p class="muted">No business associates recorded yet.</p>
          ) : (
            <>
              <p class="big">
                {associates.summary.covered} / {associates.summary.with_phi_access}
              </p>
              <p class="muted small">
                with PHI access have a current BAA; {associates.summary.missing} missing, {associates.summary.expired}{" "}
                expired, {associates.summary.expiring} expiring
              </p>
            </>
          )}
          {canEdit && (
            <p>
              <a href={`/portal/practices/${npi}/business-associates/new`}>Add a business associate</a>
            </p>
          )}
        </div>
      </section>
      {training.members.length > 0 && (
        <section class="card">
          <h2>Training roster</h2>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Last completed</th>
                <th scope="col">Due</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {training.members.map((m) => (
                <tr>
                  <td>{m.name}</td>
                  <td>{m.role}</td>
                  <td>{m.last_completed_on ?? "never"}</td>
                  <td>{m.due_on}</td>
                  <td>
                    <Pill state={m.state} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {associates.business_associates.length > 0 && (
        <section class="card">
          <h2>Business associate agreements</h2>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Vendor</th>
                <th scope="col">Services</th>
                <th scope="col">PHI</th>
                <th scope="col">BAA</th>
              </tr>
            </thead>
            <tbody>
              {associates.business_associates.map((b) => (
                <tr>
                  <td>
                    {canEdit ? (
                      <a href={`/portal/practices/${npi}/business-associates/${b.vendor_id}`}>{b.name}</a>
                    ) : (
                      b.name
                    )}
                  </td>
                  <td>{b.services.join(", ")}</td>
                  <td>{b.phi_access ? "yes" : "no"}</td>
                  <td>
                    <Pill state={b.coverage} />
                    {b.expires_on && <span class="muted small"> until {b.expires_on}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <section class="card">
        <h2>Restore tests (contingency plan)</h2>
        <p class="muted small">
          Requirement 6 is met when a restore of every system that holds ePHI was tested within 12 months and took under
          72 hours, and backups are recent.
        </p>
        {canEdit && (
          <p>
            <a class="button" href={`/portal/practices/${npi}/restore-tests/new`}>
              Record a restore test
            </a>
          </p>
        )}
        {restoreTests.length === 0 ? (
          <p class="muted">No restore test recorded.</p>
        ) : (
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Tested on</th>
                <th scope="col">System</th>
                <th scope="col">Data restored</th>
                <th scope="col">Time to restore</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {restoreTests.map((r) => (
                <tr>
                  <td>
                    {r.tested_on}
                    {!r.current && <span class="muted small"> (over 12 months ago)</span>}
                  </td>
                  <td>{r.system}</td>
                  <td>{r.data_restored}</td>
                  <td>
                    {Math.round((r.time_to_restore_minutes / 60) * 10) / 10} h
                    {!r.within_72_hours && <span class="muted small"> (over 72 hours)</span>}
                  </td>
                  <td>
                    <Pill
                      state={
                        r.outcome === "succeeded" && r.within_72_hours && r.current
                          ? "current"
                          : r.outcome === "failed"
                            ? "failed"
                            : "out_of_date"
                      }
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <PoliciesSection npi={npi} policies={policies} changes={policyChanges} />
    </PortalPage>
  );
}

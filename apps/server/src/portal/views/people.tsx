import type { PortalRole } from "../roles.js";
import type { PortalUser } from "../users.js";
import { CsrfField, Notice, PortalPage, type Viewer } from "./layout.js";

/** Settings → People: the account's users, and inviting a colleague with a role (owners only). */
export function PeoplePage({
  viewer,
  users,
  invitableRoles,
  inviteLink,
  error,
}: {
  viewer: Viewer;
  users: readonly PortalUser[];
  invitableRoles: readonly PortalRole[];
  inviteLink: string | null;
  error?: string;
}) {
  return (
    <PortalPage title="People" viewer={viewer} active="people">
      {error && <Notice kind="error">{error}</Notice>}
      {inviteLink && (
        <Notice kind="ok">
          Invitation created. Send this one-time link (valid 72 hours) to your colleague: <code>{inviteLink}</code>
        </Notice>
      )}
      <section class="card">
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Two-step</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr>
                <td>{u.email}</td>
                <td>{u.role}</td>
                <td>{u.mfaEnrolled ? "on" : "off"}</td>
                <td>{u.active ? "active" : "invited"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {invitableRoles.length > 0 && (
        <section class="card">
          <h2>Invite a colleague</h2>
          <form method="post" action="/portal/settings/people" class="inline-form">
            <CsrfField token={viewer.csrf} />
            <label>
              Email
              <input name="email" type="email" required />
            </label>
            <label>
              Role
              <select name="role">
                {invitableRoles.map((r) => (
                  <option value={r}>{r}</option>
                ))}
              </select>
            </label>
            <button type="submit">Invite</button>
          </form>
          <p class="muted small">
            Owners invite people and manage everything; managers create deploy tokens and API keys; viewers read. Owners
            and managers must set up two-step verification.
          </p>
        </section>
      )}
    </PortalPage>
  );
}

import type { AccountView } from "../../services/accounts.js";
import type { LedgerEntry } from "../../services/credit-ledger.js";
import { Command, CsrfField, Notice, PortalPage, RevokeForm, type Viewer } from "./layout.js";

export interface KeyRow {
  readonly id: string;
  readonly label: string;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
}

/** Settings → API access: keys (created here, shown once), the plan, credits and their ledger. */
export function ApiAccessPage({
  viewer,
  account,
  keys,
  ledger,
  canManage,
  newKey,
  webhook,
  notice,
}: {
  viewer: Viewer;
  account: AccountView;
  keys: readonly KeyRow[];
  ledger: readonly LedgerEntry[];
  canManage: boolean;
  newKey: { id: string; apiKey: string } | null;
  webhook: { set: boolean; canRotate: boolean; newSecret: string | null };
  notice?: string;
}) {
  const professional = account.plan === "professional";
  return (
    <PortalPage title="API access" viewer={viewer} active="api">
      {notice && <Notice kind="ok">{notice}</Notice>}
      <section class="cards">
        <div class="card">
          <h2>Plan</h2>
          <p class="big">{account.plan}</p>
          <p class="muted small">
            {professional
              ? "Group A (administrative records: policies, risk assessment, training, incidents) and Group B operations."
              : "Group B operations. Group A (administrative records) needs the Professional plan."}
          </p>
        </div>
        <div class="card">
          <h2>Credits</h2>
          <p class="big">{account.credits.toLocaleString("en-US")}</p>
          <p class="muted small">Rate-limit tier: {account.tier}</p>
        </div>
      </section>
      <section class="card">
        <h2>API keys</h2>
        {newKey && (
          <>
            <Notice kind="info">Copy the key now: it is shown only once and stored hashed.</Notice>
            <Command id="new-key" text={newKey.apiKey} />
            <p class="muted small">
              Group B: send it as <code>X-API-Key</code>.
              {professional ? (
                <>
                  {" "}
                  Group A: <code>Authorization: Bearer</code>.
                </>
              ) : null}
            </p>
          </>
        )}
        {canManage && (
          <form method="post" action="/portal/settings/api/keys" class="inline-form">
            <CsrfField token={viewer.csrf} />
            <label>
              Label
              <input name="label" maxlength={100} placeholder="EHR integration" />
            </label>
            <button type="submit">Create key</button>
          </form>
        )}
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Key id</th>
              <th scope="col">Label</th>
              <th scope="col">Created</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr>
                <td>
                  <code>{k.id}</code>
                </td>
                <td>{k.label || "—"}</td>
                <td>{k.created_at.slice(0, 10)}</td>
                <td>
                  {k.revoked_at ? (
                    <span class="pill pill-none">revoked {k.revoked_at.slice(0, 10)}</span>
                  ) : (
                    <span class="pill pill-full">active</span>
                  )}
                </td>
                <td>
                  {canManage && !k.revoked_at && (
                    <RevokeForm action={`/portal/settings/api/keys/${k.id}/revoke`} csrf={viewer.csrf} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section class="card">
        <h2>Webhook signing secret</h2>
        <p>
          {webhook.set
            ? "A secret is set: every webhook delivery to your account carries its HMAC-SHA256 signature in X-HCS-Signature."
            : "No secret is set: webhook deliveries cannot be signed until one is."}
        </p>
        {webhook.newSecret && (
          <>
            <Notice kind="info">
              Copy the new secret now: it is shown only once. Deliveries are signed with it from now on; the old one no
              longer verifies.
            </Notice>
            <Command id="new-webhook-secret" text={webhook.newSecret} />
          </>
        )}
        {webhook.canRotate ? (
          <form method="post" action="/portal/settings/api/webhook-secret" class="inline-form">
            <CsrfField token={viewer.csrf} />
            <button type="submit" class="danger">
              Rotate webhook secret
            </button>
          </form>
        ) : (
          <p class="muted small">Only an owner of the account can rotate it.</p>
        )}
      </section>
      <section class="card">
        <h2>Credit ledger</h2>
        {ledger.length === 0 ? (
          <p class="muted">No credit movements yet.</p>
        ) : (
          <table class="list">
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Operation</th>
                <th scope="col" class="num">
                  Change
                </th>
                <th scope="col" class="num">
                  Balance
                </th>
                <th scope="col">Reference</th>
              </tr>
            </thead>
            <tbody>
              {ledger.map((e) => (
                <tr>
                  <td>{e.created_at.slice(0, 16).replace("T", " ")}</td>
                  <td>{e.operation}</td>
                  <td class="num">{e.delta > 0 ? `+${e.delta}` : e.delta}</td>
                  <td class="num">{e.balance_after}</td>
                  <td>{e.reference ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </PortalPage>
  );
}

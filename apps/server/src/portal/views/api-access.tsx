import type { AccountOverview, UsageStatement } from "@hcs/protocol";
import type { LedgerEntry } from "../../services/credit-ledger.js";
import { Command, CsrfField, Notice, PortalPage, RevokeForm, type Viewer } from "./layout.js";

export interface KeyRow {
  readonly id: string;
  readonly label: string;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
}

const n = (credits: number) => credits.toLocaleString("en-US");
const day = (at: string) => at.slice(0, 10);
const words = (operation: string) => operation.replace(/_/g, " ");

/** One period's usage, operation by operation (the statement's lines). */
function UsageTable({ statement }: { statement: UsageStatement }) {
  if (statement.usage.length === 0) return <p class="muted">No credits used in this period yet.</p>;
  return (
    <table class="list">
      <thead>
        <tr>
          <th scope="col">Operation</th>
          <th scope="col" class="num">
            Calls
          </th>
          <th scope="col" class="num">
            Charged
          </th>
          <th scope="col" class="num">
            Refunded
          </th>
          <th scope="col" class="num">
            Credits
          </th>
        </tr>
      </thead>
      <tbody>
        {statement.usage.map((l) => (
          <tr>
            <td>{words(l.operation)}</td>
            <td class="num">{n(l.calls)}</td>
            <td class="num">{n(l.charged)}</td>
            <td class="num">{n(l.refunded)}</td>
            <td class="num">{n(l.credits)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Settings → API access: the account as `GET /v1/a2a/account` answers it (plan and its terms, credits, the rate
 * limits, this period's usage and a statement per period), the keys (created here, shown once), the webhook secret
 * and the credit ledger.
 */
export function ApiAccessPage({
  viewer,
  overview,
  keys,
  ledger,
  canManage,
  newKey,
  webhook,
  notice,
}: {
  viewer: Viewer;
  overview: AccountOverview;
  keys: readonly KeyRow[];
  ledger: readonly LedgerEntry[];
  canManage: boolean;
  newKey: { id: string; apiKey: string } | null;
  webhook: { set: boolean; canRotate: boolean; newSecret: string | null };
  notice?: string;
}) {
  const terms = overview.plan_terms;
  const groupA = terms.group_a;
  const period = overview.current_period;
  const statements = [period, ...overview.past_periods];
  const contact = overview.contact_email;
  const windows = [
    ...overview.rate_limits.group_b.windows.map((w) => ({ group: "Group B", ...w })),
    ...(overview.rate_limits.group_a?.windows ?? []).map((w) => ({ group: "Group A", ...w })),
  ];
  return (
    <PortalPage title="API access" viewer={viewer} active="api">
      {notice && <Notice kind="ok">{notice}</Notice>}
      <section class="cards">
        <div class="card">
          <h2>Plan</h2>
          <p class="big">{terms.title}</p>
          <p class="muted small">
            {groupA
              ? "Group A (administrative records: policies, risk assessment, training, incidents) and Group B operations."
              : "Group B operations. Group A (administrative records) needs the Professional or Enterprise plan."}{" "}
            {terms.summary}.
          </p>
          <p class="small" id="plan-contact">
            {contact ? (
              <>
                For credits, another plan or Enterprise terms, write to <a href={`mailto:${contact}`}>{contact}</a>.
              </>
            ) : (
              "For credits or another plan, ask the operator of this service."
            )}
          </p>
        </div>
        <div class="card">
          <h2>Credits</h2>
          <p class="big">{n(overview.balance)}</p>
          <p class="muted small">Rate-limit tier: {overview.tier}</p>
        </div>
      </section>
      <section class="card" id="rate-limits">
        <h2>Rate limits</h2>
        <p class="muted small">
          Each API key of the account is counted in these windows on its own; changes you make here count per person.
          Shown: your own counts.
        </p>
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Window</th>
              <th scope="col" class="num">
                Limit
              </th>
              <th scope="col" class="num">
                Used
              </th>
              <th scope="col" class="num">
                Remaining
              </th>
              <th scope="col">Resets (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {windows.map((w) => (
              <tr>
                <td>{w.group}</td>
                <td>
                  {w.window_seconds === 60 ? "minute" : w.window_seconds === 3600 ? "hour" : `${w.window_seconds} s`}
                </td>
                <td class="num">{n(w.limit)}</td>
                <td class="num">{n(w.used)}</td>
                <td class="num">{n(w.remaining)}</td>
                <td>{w.resets_at.slice(11, 19)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section class="card" id="usage">
        <h2>
          Usage this period ({day(period.start)} to {day(period.end)})
        </h2>
        <UsageTable statement={period} />
        <p class="small">
          {n(period.usage_credits)} credits used.
          {period.annual_minimum > 0
            ? ` Annual minimum ${n(period.annual_minimum)}, credited against usage: ${
                period.minimum_shortfall > 0 ? `${n(period.minimum_shortfall)} not used yet.` : "met."
              }`
            : ""}
        </p>
      </section>
      <section class="card" id="statements">
        <h2>Statements</h2>
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Plan</th>
              <th scope="col">State</th>
              <th scope="col" class="num">
                Used
              </th>
              <th scope="col" class="num">
                Minimum
              </th>
              <th scope="col" class="num">
                Shortfall
              </th>
              <th scope="col" class="num">
                Added
              </th>
              <th scope="col" class="num">
                Opening
              </th>
              <th scope="col" class="num">
                Closing
              </th>
            </tr>
          </thead>
          <tbody>
            {statements.map((st) => (
              <tr>
                <td>
                  {day(st.start)} to {day(st.end)}
                </td>
                <td>{st.plan}</td>
                <td>{st.state}</td>
                <td class="num">{n(st.usage_credits)}</td>
                <td class="num">{n(st.annual_minimum)}</td>
                <td class="num">{n(st.minimum_shortfall)}</td>
                <td class="num">{n(st.credits_added)}</td>
                <td class="num">{n(st.opening_balance)}</td>
                <td class="num">{n(st.closing_balance)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section class="card">
        <h2>API keys</h2>
        {newKey && (
          <>
            <Notice kind="info">Copy the key now: it is shown only once and stored hashed.</Notice>
            <Command id="new-key" text={newKey.apiKey} />
            <p class="muted small">
              Group B: send it as <code>X-API-Key</code>.
              {groupA ? (
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
      <section class="card" id="ledger">
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

import type { PolicyList } from "../../administrative/policies/policy-schemas.js";
import { CsrfField, Notice } from "./layout.js";
import { Pill } from "./pill.js";

/** What the Records page knows about changing policies: who may, at what price, and what the account holds. */
export interface PolicyChanges {
  /** The role may change records (owners, managers); viewers see no buttons. */
  readonly allowed: boolean;
  readonly csrf: string;
  /** Credits per generated document (the API's price, hipaa.policies). */
  readonly pricePerDocument: number;
  readonly balance: number;
  /** How many documents the last change generated (after its redirect), for the notice. */
  readonly generated: number | null;
}

/** One button that generates `policy` ("all", or a number) through the priced operation; the price is on it. */
function GenerateForm({
  npi,
  csrf,
  policy,
  label,
  credits,
  primary,
}: {
  npi: string;
  csrf: string;
  policy: string;
  label: string;
  credits: number;
  primary?: boolean;
}) {
  return (
    <form method="post" action={`/portal/practices/${npi}/policies/generate`} class="inline">
      <CsrfField token={csrf} />
      <input type="hidden" name="policy" value={policy} />
      <button type="submit" class={primary ? "" : "small-button"}>
        {label} ({credits} credits)
      </button>
    </form>
  );
}

/**
 * The 24 policies with state, version and review date, their downloads, and — for roles that may change records —
 * generate all, or (re)generate one, each button showing its price.
 */
export function PoliciesSection({
  npi,
  policies,
  changes,
}: {
  npi: string;
  policies: PolicyList;
  changes: PolicyChanges;
}) {
  const anyGenerated = policies.policies.some((p) => p.version !== null);
  const all = policies.policies.length;
  return (
    <section class="card" id="policies">
      <h2>
        Policies ({policies.current} of {policies.total} current)
      </h2>
      {changes.generated !== null && (
        <Notice kind="ok">
          {changes.generated === 1 ? "The policy was generated" : `${changes.generated} policies were generated`}: the
          new versions are below. The charge is in the credit ledger (Settings · API access).
        </Notice>
      )}
      {changes.allowed && (
        <div class="actions">
          <GenerateForm
            npi={npi}
            csrf={changes.csrf}
            policy="all"
            label={anyGenerated ? `Regenerate all ${all} policies` : `Generate all ${all} policies`}
            credits={all * changes.pricePerDocument}
            primary
          />
          <p class="muted small">
            {changes.pricePerDocument} credits per document, as the API charges (hipaa.policies); your account holds{" "}
            {changes.balance} credits. Earlier versions are kept.
          </p>
        </div>
      )}
      <table class="list">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Policy</th>
            <th scope="col">State</th>
            <th scope="col">Review due</th>
            <th scope="col">Download</th>
            {changes.allowed && <th scope="col">Change</th>}
          </tr>
        </thead>
        <tbody>
          {policies.policies.map((p) => (
            <tr>
              <td class="num">{p.number}</td>
              <td>
                {p.title}
                <span class="muted small"> · {p.citations.slice(0, 2).join(", ")}</span>
              </td>
              <td>
                <Pill state={p.status} />
                {p.version !== null && <span class="muted small"> v{p.version}</span>}
              </td>
              <td>{p.review_due_on ?? "—"}</td>
              <td>
                {p.version !== null ? (
                  <>
                    <a href={`/portal/practices/${npi}/policies/${p.number}?format=html`}>
                      HTML<span class="visually-hidden"> of policy {p.number}</span>
                    </a>{" "}
                    ·{" "}
                    <a href={`/portal/practices/${npi}/policies/${p.number}?format=markdown`}>
                      Markdown<span class="visually-hidden"> of policy {p.number}</span>
                    </a>
                  </>
                ) : (
                  "—"
                )}
              </td>
              {changes.allowed && (
                <td>
                  <GenerateForm
                    npi={npi}
                    csrf={changes.csrf}
                    policy={String(p.number)}
                    label={`${p.version !== null ? "Regenerate" : "Generate"} policy ${p.number}`}
                    credits={changes.pricePerDocument}
                  />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

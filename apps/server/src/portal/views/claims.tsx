import type { Claim } from "@hcs/protocol";
import { CsrfField, Notice, PortalPage, type Viewer } from "./layout.js";

/**
 * Settings → Add a practice: the account's claims, adding a practice by NPI and domain from the NPPES directory, and
 * the challenge to publish before asking for verification (docs/onboarding.md).
 */
export function ClaimsPage({
  viewer,
  claims,
  canChange,
  notice,
  error,
}: {
  viewer: Viewer;
  claims: readonly Claim[];
  canChange: boolean;
  notice?: string;
  error?: string;
}) {
  return (
    <PortalPage title="Add a practice" viewer={viewer} active="claims">
      {error && <Notice kind="error">{error}</Notice>}
      {notice && <Notice kind="ok">{notice}</Notice>}
      {canChange && (
        <section class="card">
          <h2>Add a practice from the NPPES directory</h2>
          <p>
            Its name and address come from the directory. You then prove that you control its domain, by a DNS TXT
            record or a file on its website; until then you see only what is public.
          </p>
          <form method="post" action="/portal/settings/practices" class="inline-form">
            <CsrfField token={viewer.csrf} />
            <label>
              NPI
              <input name="npi" inputmode="numeric" pattern="[0-9]{10}" required />
            </label>
            <label>
              Domain
              <input name="domain" placeholder="clinic.example" required />
            </label>
            <button type="submit">Add the practice</button>
          </form>
        </section>
      )}
      {claims.map((c) => (
        <section class="card" data-claim={c.claim_id}>
          <h2>
            {c.practice_name ?? `NPI ${c.npi}`} · {c.domain}
          </h2>
          <p>
            NPI {c.npi} · <strong>{c.status}</strong> · {c.access}
          </p>
          {c.candidate_domains.length > 0 && (
            <p>
              Domains its NPPES endpoints name:{" "}
              {c.candidate_domains.map((d) => `${d.domain}${d.affiliated ? " (affiliated)" : ""}`).join(", ")}
            </p>
          )}
          {(c.status === "pending" || c.status === "contested") && (
            <>
              <p>Publish one of these, then verify:</p>
              <ul>
                <li>
                  DNS TXT record <code>{c.challenge.dns_txt.name}</code> with the value{" "}
                  <code>{c.challenge.dns_txt.value}</code>
                </li>
                <li>
                  the file <code>{c.challenge.well_known.url}</code> holding the line{" "}
                  <code>{c.challenge.well_known.body}</code>
                </li>
              </ul>
              {c.last_check && (
                <p>
                  Last check ({c.last_check.at.slice(0, 16).replace("T", " ")} UTC): DNS — {c.last_check.dns_txt.detail}
                  ; website — {c.last_check.well_known.detail}
                </p>
              )}
              {canChange && (
                <form method="post" action={`/portal/settings/practices/${c.claim_id}/verify`} class="inline">
                  <CsrfField token={viewer.csrf} />
                  <button type="submit">Verify</button>
                </form>
              )}
            </>
          )}
          {c.status === "proved" && <a href={`/portal/practices/${c.npi}`}>Open the practice</a>}
        </section>
      ))}
    </PortalPage>
  );
}

import type { ComponentChildren } from "preact";

/** What every signed-in page knows: who is signed in, their account, and the CSRF token for its forms. */
export interface Viewer {
  readonly email: string;
  readonly role: string;
  readonly accountName: string;
  readonly csrf: string;
  readonly practices: readonly { readonly npi: string; readonly name: string }[];
  /** The practice the page is about, if any. */
  readonly npi?: string;
}

export type NavItem =
  | "dashboard"
  | "findings"
  | "records"
  | "risk"
  | "reports"
  | "scanner"
  | "audit"
  | "api"
  | "people"
  | "claims";

/** The hidden CSRF field every form carries. */
export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name="_csrf" value={token} />;

/**
 * Text to copy — a command, a key or a secret shown once — with a Copy button (the button only appears with script,
 * portal.js; the text can always be selected).
 */
export function Command({ id, text, shell }: { id: string; text: string; shell?: "sh" | "powershell" }) {
  return (
    <div class="command">
      <pre id={id} {...(shell ? { "data-shell": shell } : {})}>
        <code>{text}</code>
      </pre>
      <button type="button" class="copy" data-copy={id} hidden>
        Copy
      </button>
    </div>
  );
}

/** A one-button form that revokes what `action` names (a key, an agent), with the session's CSRF token. */
export const RevokeForm = ({ action, csrf }: { action: string; csrf: string }) => (
  <form method="post" action={action}>
    <CsrfField token={csrf} />
    <button type="submit" class="danger small-button">
      Revoke
    </button>
  </form>
);

function Head({ title }: { title: string }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${title} · HCS portal`}</title>
      <link rel="icon" href="/portal/assets/favicon.svg" type="image/svg+xml" />
      <link rel="stylesheet" href="/portal/assets/portal.css" />
      <script src="/portal/assets/portal.js" defer />
    </head>
  );
}

/** Every page's footer: the privacy notice, reachable signed in or not. */
const Footer = () => (
  <footer class="page-footer">
    <a href="/portal/privacy">Privacy</a>
  </footer>
);

/** A page for someone not (fully) signed in: a centred card. */
export function PublicPage({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <Head title={title} />
      <body class="public">
        <main class="auth-card">
          <p class="brand">
            <span class="brand-mark" aria-hidden="true">
              H
            </span>
            HCS compliance portal
          </p>
          <h1>{title}</h1>
          {children}
        </main>
        <Footer />
      </body>
    </html>
  );
}

/** A signed-in page: the navigation (practice pages for the practice in view) and the content. */
export function PortalPage({
  title,
  viewer,
  active,
  children,
}: {
  title: string;
  viewer: Viewer;
  active: NavItem;
  children: ComponentChildren;
}) {
  const npi = viewer.npi ?? viewer.practices[0]?.npi;
  const link = (item: NavItem, href: string, label: string) => (
    <li>
      <a href={href} aria-current={item === active ? "page" : undefined}>
        {label}
      </a>
    </li>
  );
  return (
    <html lang="en">
      <Head title={title} />
      <body>
        <header class="topbar">
          <a class="brand" href="/portal">
            <span class="brand-mark" aria-hidden="true">
              H
            </span>
            HCS
          </a>
          <span class="account">{viewer.accountName}</span>
          <span class="who">
            {viewer.email} · {viewer.role}
          </span>
          <form method="post" action="/portal/sign-out" class="inline">
            <CsrfField token={viewer.csrf} />
            <button type="submit" class="link-button">
              Sign out
            </button>
          </form>
        </header>
        <div class="shell">
          <nav aria-label="Portal">
            {viewer.practices.length > 1 && (
              <ul class="practices">
                {viewer.practices.map((p) => (
                  <li>
                    <a href={`/portal/practices/${p.npi}`} aria-current={p.npi === npi ? "true" : undefined}>
                      {p.name}
                    </a>
                  </li>
                ))}
              </ul>
            )}
            <ul>
              {npi && link("dashboard", `/portal/practices/${npi}`, "Dashboard")}
              {npi && link("findings", `/portal/practices/${npi}/findings`, "Findings")}
              {npi && link("records", `/portal/practices/${npi}/records`, "Records")}
              {npi && link("risk", `/portal/practices/${npi}/risk-assessment`, "Risk assessment")}
              {npi && link("reports", `/portal/practices/${npi}/reports`, "Reports")}
              {npi && link("scanner", `/portal/practices/${npi}/scanner`, "Scanner")}
              {link("audit", "/portal/audit", "Audit log")}
              {link("claims", "/portal/settings/practices", "Settings · Add a practice")}
              {link("api", "/portal/settings/api", "Settings · API access")}
              {link("people", "/portal/settings/people", "Settings · People")}
            </ul>
          </nav>
          <main>
            <h1>{title}</h1>
            {children}
          </main>
        </div>
        <Footer />
      </body>
    </html>
  );
}

/** A notice above a page's content: what just happened or what went wrong. */
export function Notice({ kind, children }: { kind: "error" | "ok" | "info"; children: ComponentChildren }) {
  return (
    <div class={`notice notice-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

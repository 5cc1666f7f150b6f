import { CsrfField, Notice, PublicPage } from "./layout.js";

export function SignInPage({
  csrf,
  error,
  info,
  email,
}: {
  csrf: string;
  error?: string;
  info?: string;
  email?: string;
}) {
  return (
    <PublicPage title="Sign in">
      {info && <Notice kind="info">{info}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      <form method="post" action="/portal/sign-in" class="stack">
        <CsrfField token={csrf} />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value={email ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
      <p class="muted">No account yet? Ask your practice's owner or your HCS operator for an invitation.</p>
    </PublicPage>
  );
}

export function SecondFactorPage({ csrf, error }: { csrf: string; error?: string }) {
  return (
    <PublicPage title="Two-step verification">
      {error && <Notice kind="error">{error}</Notice>}
      <p>Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
      <form method="post" action="/portal/sign-in/code" class="stack">
        <CsrfField token={csrf} />
        <label for="code">Code</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength={16} />
        <button type="submit">Verify</button>
      </form>
    </PublicPage>
  );
}

export function EnrolPage({
  csrf,
  qrDataUrl,
  secret,
  error,
}: {
  csrf: string;
  qrDataUrl: string;
  secret: string;
  error?: string;
}) {
  return (
    <PublicPage title="Set up two-step verification">
      {error && <Notice kind="error">{error}</Notice>}
      <p>
        Your role can see and create credentials, so HIPAA §164.312(d) asks for a second factor. Scan this code with an
        authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).
      </p>
      <img class="qr" src={qrDataUrl} alt="QR code to add HCS to your authenticator app" width={200} height={200} />
      <p class="muted">
        Cannot scan? Enter this key by hand: <code class="secret">{secret}</code>
      </p>
      <form method="post" action="/portal/mfa/enrol" class="stack">
        <CsrfField token={csrf} />
        <label for="code">Code shown by the app</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength={8} />
        <button type="submit">Confirm</button>
      </form>
    </PublicPage>
  );
}

export function RecoveryCodesPage({ codes }: { codes: readonly string[] }) {
  return (
    <PublicPage title="Save your recovery codes">
      <Notice kind="ok">Two-step verification is on.</Notice>
      <p>
        Each code signs you in once if you lose your phone. Store them somewhere safe now: they are not shown again.
      </p>
      <ul class="codes">
        {codes.map((c) => (
          <li>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <p>
        <a class="button" href="/portal">
          Continue to the portal
        </a>
      </p>
    </PublicPage>
  );
}

export function InvitePage({
  csrf,
  token,
  email,
  accountName,
  role,
  error,
}: {
  csrf: string;
  token: string;
  email: string;
  accountName: string;
  role: string;
  error?: string;
}) {
  return (
    <PublicPage title="Accept your invitation">
      {error && <Notice kind="error">{error}</Notice>}
      <p>
        You are invited to <strong>{accountName}</strong> as <strong>{role}</strong>. Choose a password for{" "}
        <strong>{email}</strong>.
      </p>
      <form method="post" action="/portal/invite" class="stack">
        <CsrfField token={csrf} />
        <input type="hidden" name="token" value={token} />
        <input type="email" name="username" value={email} autocomplete="username" hidden readonly />
        <label for="password">New password (at least 12 characters)</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required minlength={12} />
        <label for="confirm">Repeat the password</label>
        <input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength={12} />
        <button type="submit">Set password</button>
      </form>
    </PublicPage>
  );
}

export function MessagePage({
  title,
  message,
  link,
}: {
  title: string;
  message: string;
  link?: { href: string; label: string };
}) {
  return (
    <PublicPage title={title}>
      <p>{message}</p>
      {link && (
        <p>
          <a href={link.href}>{link.label}</a>
        </p>
      )}
    </PublicPage>
  );
}

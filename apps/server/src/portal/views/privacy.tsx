import { PRE_SESSION_COOKIE, SESSION_COOKIE } from "../web/cookies.js";
import { PublicPage } from "./layout.js";

/**
 * The portal's privacy notice: what the portal keeps about the people who sign in and which cookies it sets. Every
 * statement here is a fact of the code (docs/portal.md); change them together. HCS serves covered entities and
 * is not one (it has no patients), so this is a privacy policy, not a HIPAA Notice of Privacy Practices: patients
 * find that on their practice's own website.
 */
export function PrivacyPage({ idleMinutes }: { idleMinutes: number }) {
  return (
    <PublicPage title="Privacy">
      <p>
        This portal shows a practice's staff the compliance results of their own practices. It is run by the operator of
        this HCS service for its customers. The Notice of Privacy Practices for patients is published by each practice,
        not here.
      </p>
      <h2>What the portal keeps about you</h2>
      <ul>
        <li>Your email address, your role and the account you belong to, and who invited you.</li>
        <li>
          Your password only as a salted scrypt hash, your authenticator secret encrypted with the server's key, and
          your recovery codes and session tokens only as SHA-256 hashes.
        </li>
        <li>Failed sign-ins in a row and a lock-out time, to stop password guessing.</li>
        <li>
          An audit event, naming you, for every sign-in attempt and every change you make, in a tamper-evident log.
        </li>
      </ul>
      <h2>Cookies</h2>
      <p>
        Two cookies, both needed for signing in and neither shared with anyone: <code>{PRE_SESSION_COOKIE}</code> ties
        the sign-in form to your browser, <code>{SESSION_COOKIE}</code> is your session. Both are Secure, HttpOnly and
        SameSite=Strict. You are signed out after {idleMinutes} minutes without activity.
      </p>
      <p>
        No analytics, advertising or tracking: the portal loads nothing from other sites, and every script, style and
        image comes from this server.
      </p>
      <h2>Practice data</h2>
      <p>
        Grades, findings and records come from scans of your account's practices. The scanner on a practice's computers
        reports configuration and security findings; of files that may hold patient data it reports counts, types and
        locations, never their contents.
      </p>
      <p>
        <a href="/portal">Back to the portal</a>
      </p>
    </PublicPage>
  );
}

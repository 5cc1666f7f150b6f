// The customer portal's tables (migration 022, docs/portal.md). Times are ISO-8601 UTC text as everywhere else.

/** A person who signs in to the portal, in one account, with one role. */
export interface PortalUsersTable {
  id: string;
  account_id: string;
  /** Lower-cased; unique across the service (one sign-in name, one account). */
  email: string;
  /** owner, manager or viewer. */
  role: string;
  /** `scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>`; null until the invitation is accepted. */
  password_hash: string | null;
  /** The confirmed TOTP secret, sealed with the master key (see secrets/master-key.ts); null until enrolled. */
  totp_secret_enc: string | null;
  /** A secret shown for enrolment but not yet confirmed by a code, sealed. */
  totp_pending_enc: string | null;
  /** The last 30-second step a code was accepted for: a code is never accepted twice. */
  totp_last_step: number | null;
  failed_sign_ins: number;
  locked_until: string | null;
  /** The user who invited this one (null: the operator). */
  invited_by: string | null;
  created_at: string;
  disabled_at: string | null;
}

/** A one-time invitation link; only its SHA-256 is stored. */
export interface PortalInvitesTable {
  token_hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A recovery code (SHA-256 of the normalised code), usable once instead of a TOTP code. */
export interface PortalRecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: string | null;
}

/** A signed-in browser: only the SHA-256 of the cookie's token is stored. */
export interface PortalSessionsTable {
  token_hash: string;
  user_id: string;
  /** password (second factor still due), enrol (TOTP enrolment due) or active. */
  stage: string;
  created_at: string;
  last_seen_at: string;
  /** Absolute end, whatever the activity. */
  expires_at: string;
  ended_at: string | null;
}

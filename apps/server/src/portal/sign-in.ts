import type { AuditInTransaction } from "../services/audit.js";
import { iso, type ServiceDeps } from "../services/deps.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { PortalError } from "./portal-errors.js";
import { recoveryCodeHash } from "./recovery-codes.js";
import { acceptedTotpStep } from "./totp.js";
import { type PortalUser, userOf } from "./users.js";

/** Consecutive failures (password or second factor) that lock a sign-in, and for how long. */
export const LOCKOUT_AFTER_FAILURES = 5;
export const LOCKOUT_MINUTES = 15;

// Verifying against this hash when the email is unknown takes as long as a real check: timing does not tell
// whether an address has a sign-in.
let decoyHash: Promise<string> | null = null;
const decoy = () => {
  decoyHash ??= hashPassword("decoy password that matches nothing");
  return decoyHash;
};

/**
 * The audit hook of a lock-out starting, for the user it locks: the one failure written to the audit log (refused
 * attempts are counted in metrics, not audited: docs/portal.md, "Audit").
 */
export type LockoutAudit = (who: { userId: string; accountId: string }) => AuditInTransaction<null>;

/**
 * Counts one failure and locks the user once there were too many in a row; true when this failure (re)started the
 * lock-out, whose audit event is then written in the same transaction.
 */
async function countFailure(
  deps: ServiceDeps,
  who: { userId: string; accountId: string },
  onLocked?: LockoutAudit,
): Promise<boolean> {
  const now = deps.now();
  const lockedUntil = iso(new Date(now.getTime() + LOCKOUT_MINUTES * 60_000));
  return deps.store.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("portal_users")
      .set((eb) => ({
        failed_sign_ins: eb("failed_sign_ins", "+", 1),
        locked_until: eb
          .case()
          .when("failed_sign_ins", ">=", LOCKOUT_AFTER_FAILURES - 1)
          .then(lockedUntil)
          .else(eb.ref("locked_until"))
          .end(),
      }))
      .where("id", "=", who.userId)
      .returning("failed_sign_ins")
      .executeTakeFirst();
    // Failures are counted only while not locked (a locked sign-in is refused before its check), so every failure
    // at or past the limit is one that set a new lock-out: the first, or the first after one ran out.
    const locked = Number(row?.failed_sign_ins ?? 0) >= LOCKOUT_AFTER_FAILURES;
    if (locked && onLocked) await onLocked(who)(trx, null);
    return locked;
  });
}

const isLocked = (lockedUntil: string | null, now: Date) => lockedUntil !== null && lockedUntil > iso(now);

/**
 * Checks an email and password. Refuses (invalid_credentials) an unknown email, a wrong password and a user who has
 * not accepted their invitation alike; a locked user gets account_locked whatever they typed, so a locked
 * account cannot be used to test guesses. A wrong password counts towards the lock-out; `onLocked` audits the
 * failure that starts one.
 */
export async function checkPassword(
  deps: ServiceDeps,
  email: string,
  password: string,
  onLocked?: LockoutAudit,
): Promise<{ user: PortalUser } | { refused: PortalError; userId: string | null; accountId: string | null }> {
  const row = await deps.store.db
    .selectFrom("portal_users")
    .selectAll()
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  const invalid = new PortalError("invalid_credentials", "The email or password is not right.");
  if (!row || row.password_hash === null || row.disabled_at !== null) {
    await verifyPassword(password, await decoy());
    return { refused: invalid, userId: row?.id ?? null, accountId: row?.account_id ?? null };
  }
  const who = { userId: row.id, accountId: row.account_id };
  if (isLocked(row.locked_until, deps.now()))
    return {
      refused: new PortalError(
        "account_locked",
        `Too many failed attempts: this sign-in is locked for up to ${LOCKOUT_MINUTES} minutes.`,
      ),
      ...who,
    };
  if (!(await verifyPassword(password, row.password_hash))) {
    await countFailure(deps, who, onLocked);
    return { refused: invalid, ...who };
  }
  return { user: userOf(row) };
}

/**
 * Checks the second factor of a user who passed the password: a current TOTP code not used before, or one of
 * their unused recovery codes (used up by this). Success clears the failure count; a failure counts towards the
 * lock-out.
 */
export async function checkSecondFactor(
  deps: ServiceDeps,
  userId: string,
  code: string,
  onLocked?: LockoutAudit,
): Promise<PortalUser> {
  const row = await deps.store.db.selectFrom("portal_users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!row || row.totp_secret_enc === null) throw new PortalError("invalid_code", "No authenticator is enrolled.");
  const now = deps.now();
  if (isLocked(row.locked_until, now))
    throw new PortalError("account_locked", "Too many failed attempts: this sign-in is locked for a while.");
  const step = acceptedTotpStep(deps.secrets.open(row.totp_secret_enc), code, now, row.totp_last_step);
  if (step !== null) {
    const r = await deps.store.db
      .updateTable("portal_users")
      .set({ totp_last_step: step, failed_sign_ins: 0, locked_until: null })
      .where("id", "=", userId)
      // Two requests racing with the same code: only one moves the step forward.
      .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 1) return userOf(row);
  } else if (await useRecoveryCode(deps, userId, code)) {
    await clearFailures(deps, userId);
    return userOf(row);
  }
  await countFailure(deps, { userId, accountId: row.account_id }, onLocked);
  throw new PortalError("invalid_code", "That code is not right (or was already used).");
}

async function useRecoveryCode(deps: ServiceDeps, userId: string, code: string): Promise<boolean> {
  const hash = recoveryCodeHash(code);
  if (!hash) return false;
  const r = await deps.store.db
    .updateTable("portal_recovery_codes")
    .set({ used_at: iso(deps.now()) })
    .where("user_id", "=", userId)
    .where("code_hash", "=", hash)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A successful sign-in forgets earlier failures. */
export async function clearFailures(deps: ServiceDeps, userId: string): Promise<void> {
  await deps.store.db
    .updateTable("portal_users")
    .set({ failed_sign_ins: 0, locked_until: null })
    .where("id", "=", userId)
    .execute();
}

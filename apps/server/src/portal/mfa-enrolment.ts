import type { AuditInTransaction } from "../services/audit.js";
import type { ServiceDeps } from "../services/deps.js";
import { PortalError } from "./portal-errors.js";
import { newRecoveryCodes, recoveryCodeHash } from "./recovery-codes.js";
import { acceptedTotpStep, newTotpSecret } from "./totp.js";

/**
 * The secret to show for enrolment: the one already pending (a page reload shows the same QR code), else a new one,
 * stored sealed until a code confirms it.
 */
export async function pendingTotpSecret(deps: ServiceDeps, userId: string): Promise<string> {
  const row = await deps.store.db
    .selectFrom("portal_users")
    .select(["totp_pending_enc"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  if (row.totp_pending_enc) return deps.secrets.open(row.totp_pending_enc);
  const secret = newTotpSecret();
  await deps.store.db
    .updateTable("portal_users")
    .set({ totp_pending_enc: deps.secrets.seal(secret) })
    .where("id", "=", userId)
    .execute();
  return secret;
}

/**
 * Confirms enrolment with a code from the app: the pending secret becomes the user's, and ten new recovery codes
 * replace any earlier ones (returned once, stored hashed). `auditIn` is written in the same transaction.
 */
export async function confirmTotpEnrolment(
  deps: ServiceDeps,
  userId: string,
  code: string,
  auditIn?: AuditInTransaction<string>,
): Promise<string[]> {
  const row = await deps.store.db
    .selectFrom("portal_users")
    .select(["totp_pending_enc"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  if (!row.totp_pending_enc) throw new PortalError("invalid_code", "Start the enrolment again: no secret is pending.");
  const step = acceptedTotpStep(deps.secrets.open(row.totp_pending_enc), code, deps.now(), null);
  if (step === null)
    throw new PortalError("invalid_code", "That code does not match. Check the time on your phone and try again.");
  const codes = newRecoveryCodes();
  await deps.store.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("portal_users")
      .set({ totp_secret_enc: row.totp_pending_enc, totp_pending_enc: null, totp_last_step: step })
      .where("id", "=", userId)
      .execute();
    await trx.deleteFrom("portal_recovery_codes").where("user_id", "=", userId).execute();
    await trx
      .insertInto("portal_recovery_codes")
      .values(codes.map((c) => ({ user_id: userId, code_hash: recoveryCodeHash(c)!, used_at: null })))
      .execute();
    await auditIn?.(trx, userId);
  });
  return codes;
}

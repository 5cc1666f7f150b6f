import { z } from "zod";
import type { AuditInTransaction } from "../services/audit.js";
import { iso, type ServiceDeps } from "../services/deps.js";
import type { PortalUsersTable } from "../store/portal-schema.js";
import { newId } from "../util/ids.js";
import { hashPassword, passwordProblem } from "./passwords.js";
import { PortalError } from "./portal-errors.js";
import { type PortalRole, PortalRoleSchema } from "./roles.js";
import { newSecretToken, tokenHash } from "./secret-tokens.js";

/** How long an invitation link works. */
export const INVITE_TTL_HOURS = 72;

export const EmailSchema = z
  .email({ error: "Enter an email address such as name@clinic.example." })
  .max(254)
  .transform((e) => e.toLowerCase());

export interface PortalUser {
  readonly id: string;
  readonly accountId: string;
  readonly email: string;
  readonly role: PortalRole;
  readonly mfaEnrolled: boolean;
  readonly createdAt: string;
  readonly active: boolean;
}

export const userOf = (r: PortalUsersTable): PortalUser => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  role: PortalRoleSchema.parse(r.role),
  mfaEnrolled: r.totp_secret_enc !== null,
  createdAt: r.created_at,
  active: r.password_hash !== null && r.disabled_at === null,
});

/** The link an invitation is accepted at (the token in the query: request logs record paths, never queries). */
export const invitationLink = (publicUrl: string, token: string) =>
  `${publicUrl}/portal/invite?token=${encodeURIComponent(token)}`;

export interface Invitation {
  readonly userId: string;
  readonly email: string;
  /** The one-time token of the link (shown once; only its hash is stored). */
  readonly token: string;
  readonly expiresAt: string;
}

/**
 * Invites a person into an account with a role: creates the user (no password yet) and a one-time link token. A
 * pending invitee invited again gets a new link (earlier links stop working); someone who already accepted cannot
 * be invited again. `auditIn` is written in the same transaction, given the user's id.
 */
export async function inviteUser(
  deps: ServiceDeps,
  input: { accountId: string; email: string; role: PortalRole; invitedBy: string | null },
  auditIn?: AuditInTransaction<string>,
): Promise<Invitation> {
  const parsedEmail = EmailSchema.safeParse(input.email);
  if (!parsedEmail.success) throw new PortalError("invalid_input", parsedEmail.error.issues[0]!.message);
  const email = parsedEmail.data;
  const role = PortalRoleSchema.parse(input.role);
  const token = newSecretToken();
  const now = deps.now();
  const expiresAt = iso(new Date(now.getTime() + INVITE_TTL_HOURS * 3_600_000));
  const userId = await deps.store.db.transaction().execute(async (trx) => {
    const account = await trx.selectFrom("accounts").select("id").where("id", "=", input.accountId).executeTakeFirst();
    if (!account) throw new PortalError("not_found", `no account ${input.accountId}`);
    const existing = await trx.selectFrom("portal_users").selectAll().where("email", "=", email).executeTakeFirst();
    let id: string;
    if (existing) {
      if (existing.password_hash !== null || existing.account_id !== input.accountId)
        throw new PortalError("user_exists", `${email} already has a portal sign-in`);
      id = existing.id;
      await trx.updateTable("portal_users").set({ role }).where("id", "=", id).execute();
      await trx
        .updateTable("portal_invites")
        .set({ used_at: iso(now) })
        .where("user_id", "=", id)
        .where("used_at", "is", null)
        .execute();
    } else {
      id = newId("usr");
      await trx
        .insertInto("portal_users")
        .values({
          id,
          account_id: input.accountId,
          email,
          role,
          password_hash: null,
          totp_secret_enc: null,
          totp_pending_enc: null,
          totp_last_step: null,
          failed_sign_ins: 0,
          locked_until: null,
          invited_by: input.invitedBy,
          created_at: iso(now),
          disabled_at: null,
        })
        .execute();
    }
    await trx
      .insertInto("portal_invites")
      .values({ token_hash: tokenHash(token), user_id: id, expires_at: expiresAt, used_at: null, created_at: iso(now) })
      .execute();
    await auditIn?.(trx, id);
    return id;
  });
  return { userId, email, token, expiresAt };
}

/** The invitation behind a link token, if it can still be accepted: whom it is for and the account's name. */
export async function openInvitation(
  deps: ServiceDeps,
  token: string,
): Promise<{ user: PortalUser; accountName: string } | null> {
  const row = await deps.store.db
    .selectFrom("portal_invites as i")
    .innerJoin("portal_users as u", "u.id", "i.user_id")
    .innerJoin("accounts as a", "a.id", "u.account_id")
    .selectAll("u")
    .select("a.name as account_name")
    .where("i.token_hash", "=", tokenHash(token))
    .where("i.used_at", "is", null)
    .where("i.expires_at", ">", iso(deps.now()))
    .where("u.password_hash", "is", null)
    .executeTakeFirst();
  if (!row) return null;
  return { user: userOf(row), accountName: row.account_name };
}

/**
 * Accepts an invitation: sets the password and uses up the link, atomically (two tabs submitting the same link:
 * one wins). Returns the user; `auditIn` is written in the same transaction.
 */
export async function acceptInvitation(
  deps: ServiceDeps,
  token: string,
  password: string,
  auditIn?: AuditInTransaction<PortalUser>,
): Promise<PortalUser> {
  const invited = await openInvitation(deps, token);
  if (!invited) throw new PortalError("invite_invalid", "This invitation link is used up or has expired.");
  const problem = passwordProblem(password, invited.user.email);
  if (problem) throw new PortalError("invalid_input", problem);
  const passwordHash = await hashPassword(password);
  const at = iso(deps.now());
  return deps.store.db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable("portal_invites")
      .set({ used_at: at })
      .where("token_hash", "=", tokenHash(token))
      .where("used_at", "is", null)
      .where("expires_at", ">", at)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1)
      throw new PortalError("invite_invalid", "This invitation link is used up or has expired.");
    await trx
      .updateTable("portal_users")
      .set({ password_hash: passwordHash })
      .where("id", "=", invited.user.id)
      .execute();
    const user = { ...invited.user, active: true };
    await auditIn?.(trx, user);
    return user;
  });
}

/** The account's people, oldest first. */
export async function listUsers(deps: ServiceDeps, accountId: string): Promise<PortalUser[]> {
  const rows = await deps.store.db
    .selectFrom("portal_users")
    .selectAll()
    .where("account_id", "=", accountId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(userOf);
}

/** One user by id, or null. */
export async function getUser(deps: ServiceDeps, id: string): Promise<PortalUser | null> {
  const row = await deps.store.db.selectFrom("portal_users").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? userOf(row) : null;
}

import { createHmac } from "node:crypto";
import { iso, type ServiceDeps } from "../services/deps.js";
import type { PortalSessionsTable, PortalUsersTable } from "../store/portal-schema.js";
import { newSecretToken, tokenHash } from "./secret-tokens.js";
import { type PortalUser, userOf } from "./users.js";

/** password: the second factor is still due; enrol: TOTP enrolment is due; active: signed in. */
export type SessionStage = "password" | "enrol" | "active";

/** A session ends this long after it began, however active (a working day). */
export const SESSION_MAX_HOURS = 12;
/** A session that is not yet active (between password and code) lasts this long. */
const PARTIAL_SESSION_MINUTES = 10;
// Activity is written at most this often (a page view per second must not be a write per second).
const TOUCH_EVERY_MS = 15_000;

export interface PortalSession {
  readonly tokenHash: string;
  readonly stage: SessionStage;
  readonly user: PortalUser;
  readonly createdAt: string;
}

export type SessionLookup =
  | { readonly kind: "valid"; readonly session: PortalSession }
  /** Ended by inactivity just now (the caller tells the person why they must sign in again). */
  | { readonly kind: "idle"; readonly user: PortalUser }
  | { readonly kind: "none" };

/** Starts a session for a user at a stage; returns the cookie's token (stored only as its hash). */
export async function startSession(deps: ServiceDeps, userId: string, stage: SessionStage): Promise<string> {
  const token = newSecretToken();
  const now = deps.now();
  const lifetimeMs = stage === "active" ? SESSION_MAX_HOURS * 3_600_000 : PARTIAL_SESSION_MINUTES * 60_000;
  await deps.store.db
    .insertInto("portal_sessions")
    .values({
      token_hash: tokenHash(token),
      user_id: userId,
      stage,
      created_at: iso(now),
      last_seen_at: iso(now),
      expires_at: iso(new Date(now.getTime() + lifetimeMs)),
      ended_at: null,
    })
    .execute();
  return token;
}

/**
 * The session a cookie's token names, checked for its absolute end and for inactivity (164.312(a)(2)(iii)): a
 * session idle longer than `idleMs` is ended here, and its activity is otherwise recorded.
 */
export async function lookUpSession(deps: ServiceDeps, token: string, idleMs: number): Promise<SessionLookup> {
  const hash = tokenHash(token);
  const row = (await deps.store.db
    .selectFrom("portal_sessions as s")
    .innerJoin("portal_users as u", "u.id", "s.user_id")
    .selectAll("u")
    .select(["s.stage", "s.created_at as session_created_at", "s.last_seen_at", "s.expires_at", "s.ended_at"])
    .where("s.token_hash", "=", hash)
    .executeTakeFirst()) as
    | (PortalUsersTable &
        Pick<PortalSessionsTable, "stage" | "last_seen_at" | "expires_at" | "ended_at"> & {
          session_created_at: string;
        })
    | undefined;
  if (!row || row.ended_at !== null || row.disabled_at !== null) return { kind: "none" };
  const now = deps.now();
  if (row.expires_at <= iso(now)) return { kind: "none" };
  const idleFor = now.getTime() - Date.parse(row.last_seen_at);
  if (idleFor > idleMs) {
    await endSession(deps, token);
    return { kind: "idle", user: userOf(row) };
  }
  if (idleFor >= Math.min(TOUCH_EVERY_MS, idleMs / 4))
    await deps.store.db
      .updateTable("portal_sessions")
      .set({ last_seen_at: iso(now) })
      .where("token_hash", "=", hash)
      .execute();
  return {
    kind: "valid",
    session: {
      tokenHash: hash,
      stage: row.stage as SessionStage,
      user: userOf(row),
      createdAt: row.session_created_at,
    },
  };
}

/** Ends a session (sign-out, idle log-off, or the step to a new session when the stage changes). */
export async function endSession(deps: ServiceDeps, token: string): Promise<void> {
  await deps.store.db
    .updateTable("portal_sessions")
    .set({ ended_at: iso(deps.now()) })
    .where("token_hash", "=", tokenHash(token))
    .where("ended_at", "is", null)
    .execute();
}

/**
 * The synchronizer token every form of a session carries: an HMAC of the session's cookie token, so it is bound to
 * that session, needs no storage, and cannot be computed by a page that cannot read the HttpOnly cookie.
 */
export const csrfTokenFor = (cookieToken: string): string =>
  createHmac("sha256", cookieToken).update("hcs-portal-csrf-v1").digest("base64url");

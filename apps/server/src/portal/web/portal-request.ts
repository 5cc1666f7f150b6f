import type { AppDeps } from "../../app-deps.js";
import type { HcsContext } from "../../http/state.js";
import { getAccount } from "../../services/accounts.js";
import { listPractices } from "../../services/practices.js";
import { type PortalActor, type PortalOperation, portalAudit } from "../portal-audit.js";
import { PortalError } from "../portal-errors.js";
import { can, type PortalPermission } from "../roles.js";
import { csrfTokenFor, lookUpSession, type PortalSession } from "../sessions.js";
import type { Viewer } from "../views/layout.js";
import { cookieToken, SESSION_COOKIE, setCookie } from "./cookies.js";
import { seeOther } from "./responses.js";

export const DEFAULT_IDLE_MINUTES = 15;

/** The idle log-off of this server, in milliseconds. */
export const idleMsOf = (deps: AppDeps) => (deps.portal?.idleMinutes ?? DEFAULT_IDLE_MINUTES) * 60_000;

/** A signed-in request: the session, the cookie token its forms' CSRF tokens are bound to, and the audit actor. */
export interface SignedIn {
  readonly session: PortalSession;
  readonly cookie: string;
  readonly actor: PortalActor;
}

/** The audit hook of a change by `actor` in this request (see portal-audit.ts). */
export function auditOf<R>(
  ctx: HcsContext,
  deps: AppDeps,
  actor: PortalActor,
  operation: PortalOperation,
  resource: (done: R) => string | null,
  outcome: { outcome?: "success" | "denied" | "failure"; status?: number; code?: string | null } = {},
) {
  return portalAudit<R>({ requestId: ctx.state.requestId, now: deps.now, actor, operation, ...outcome }, resource);
}

/** Writes an audit event that goes with no other change (a sign-in attempt, a sign-out), in its own transaction. */
export async function recordPortalEvent(
  ctx: HcsContext,
  deps: AppDeps,
  actor: PortalActor,
  operation: PortalOperation,
  resource: string | null,
  outcome: { outcome?: "success" | "denied" | "failure"; status?: number; code?: string | null } = {},
): Promise<void> {
  const hook = auditOf<null>(ctx, deps, actor, operation, () => resource, outcome);
  await deps.store.db.transaction().execute((trx) => hook(trx, null));
}

/**
 * The active session of the request, or null after answering: a redirect to sign-in (no session, or one just
 * ended by inactivity — audited as portal.session.expired), or to the step still due (second factor, enrolment).
 */
export async function requireSignedIn(ctx: HcsContext, deps: AppDeps): Promise<SignedIn | null> {
  const cookie = cookieToken(ctx, SESSION_COOKIE);
  const lookup = cookie ? await lookUpSession(deps, cookie, idleMsOf(deps)) : { kind: "none" as const };
  if (lookup.kind === "idle") {
    const actor = { userId: lookup.user.id, accountId: lookup.user.accountId };
    await recordPortalEvent(ctx, deps, actor, "portal.session.expired", `user:${lookup.user.id}`);
    setCookie(ctx, SESSION_COOKIE, null);
    seeOther(ctx, "/portal/sign-in?idle=1");
    return null;
  }
  if (lookup.kind === "none" || !cookie) {
    if (cookie) setCookie(ctx, SESSION_COOKIE, null);
    seeOther(ctx, "/portal/sign-in");
    return null;
  }
  const { session } = lookup;
  if (session.stage === "password") {
    seeOther(ctx, "/portal/sign-in/code");
    return null;
  }
  if (session.stage === "enrol") {
    seeOther(ctx, "/portal/mfa/enrol");
    return null;
  }
  return { session, cookie, actor: { userId: session.user.id, accountId: session.user.accountId } };
}

/** Refuses (403) a signed-in user whose role lacks `permission`. */
export function assertCan(signedIn: SignedIn, permission: PortalPermission): void {
  if (!can(signedIn.session.user.role, permission))
    throw new PortalError("forbidden", "Your role does not allow this. Ask an owner of your account.");
}

/** What the page layout shows about who is signed in. */
export async function viewerOf(deps: AppDeps, signedIn: SignedIn, npi?: string): Promise<Viewer> {
  const { user } = signedIn.session;
  const [account, practices] = await Promise.all([
    getAccount(deps, user.accountId),
    listPractices(deps, user.accountId),
  ]);
  return {
    email: user.email,
    role: user.role,
    accountName: account.name,
    csrf: csrfTokenFor(signedIn.cookie),
    practices: practices.map((p) => ({ npi: p.npi, name: p.name })),
    ...(npi ? { npi } : {}),
  };
}

import type { VNode } from "preact";
import { z } from "zod";
import type { AppDeps } from "../../app-deps.js";
import type { Routes } from "../../http/route-template.js";
import type { HcsContext } from "../../http/state.js";
import { anonymousBucketOf } from "../../net/address-bucket.js";
import { confirmTotpEnrolment, pendingTotpSecret } from "../mfa-enrolment.js";
import { PORTAL_ERROR_STATUS, PortalError } from "../portal-errors.js";
import { mfaRequired } from "../roles.js";
import { newSecretToken } from "../secret-tokens.js";
import { csrfTokenFor, endSession, lookUpSession, type SessionStage, startSession } from "../sessions.js";
import { checkPassword, checkSecondFactor, clearFailures } from "../sign-in.js";
import { totpUri } from "../totp.js";
import { acceptInvitation, openInvitation, type PortalUser } from "../users.js";
import {
  EnrolPage,
  InvitePage,
  MessagePage,
  RecoveryCodesPage,
  SecondFactorPage,
  SignInPage,
} from "../views/auth-pages.js";
import { cookieToken, PRE_SESSION_COOKIE, SESSION_COOKIE, setCookie } from "./cookies.js";
import { readForm } from "./forms.js";
import { auditOf, DEFAULT_IDLE_MINUTES, idleMsOf, recordPortalEvent } from "./portal-request.js";
import { seeOther, sendPage } from "./responses.js";
import type { SignInThrottle } from "./sign-in-throttle.js";

const SignInForm = z.object({
  email: z.string().trim().min(1, "Enter your email.").max(254),
  password: z.string().min(1, "Enter your password.").max(1024),
});
const CodeForm = z.object({ code: z.string().trim().min(1, "Enter the code.").max(32) });
const InviteForm = z
  .object({
    token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "This invitation link is not valid."),
    password: z.string().max(1024),
    confirm: z.string().max(1024),
    username: z.string().optional(),
  })
  .refine((f) => f.password === f.confirm, "The two passwords differ.");

/** The steps of a sign-in whose refusals are counted (the metric's `step` label). */
type SignInStep = "password" | "second_factor";

/** The pre-session cookie's token (set now when absent): what the sign-in and invitation forms' CSRF is bound to. */
function preSession(ctx: HcsContext): string {
  const existing = cookieToken(ctx, PRE_SESSION_COOKIE);
  if (existing) return existing;
  const token = newSecretToken();
  setCookie(ctx, PRE_SESSION_COOKIE, token);
  return token;
}

/** The stage a user's session starts at once the password is right. */
const firstStage = (user: PortalUser): SessionStage =>
  user.mfaEnrolled ? "password" : mfaRequired(user.role) ? "enrol" : "active";

const STAGE_HOME: Record<SessionStage, string> = {
  password: "/portal/sign-in/code",
  enrol: "/portal/mfa/enrol",
  active: "/portal",
};

/** Replaces the request's session by a new one (a new token at every step: no session fixation). */
async function switchSession(ctx: HcsContext, deps: AppDeps, user: PortalUser, stage: SessionStage): Promise<void> {
  const old = cookieToken(ctx, SESSION_COOKIE);
  if (old) await endSession(deps, old);
  setCookie(ctx, SESSION_COOKIE, await startSession(deps, user.id, stage));
}

/** The session of a sign-in step still due, or null after sending the person back to the start. */
async function partialSession(ctx: HcsContext, deps: AppDeps, stage: SessionStage) {
  const cookie = cookieToken(ctx, SESSION_COOKIE);
  const lookup = cookie ? await lookUpSession(deps, cookie, idleMsOf(deps)) : null;
  if (!cookie || lookup?.kind !== "valid" || lookup.session.stage !== stage) {
    seeOther(ctx, "/portal/sign-in");
    return null;
  }
  return {
    cookie,
    session: lookup.session,
    actor: { userId: lookup.session.user.id, accountId: lookup.session.user.accountId },
  };
}

/** Sign-in (password, then TOTP or a recovery code), TOTP enrolment, invitations and sign-out. */
export function mountAuthRoutes(router: Routes, deps: AppDeps, throttle: SignInThrottle): void {
  router.get("/portal/sign-in", (ctx) => {
    const idle = ctx.query.idle === "1";
    const minutes = deps.portal?.idleMinutes ?? DEFAULT_IDLE_MINUTES;
    sendPage(
      ctx,
      <SignInPage
        csrf={csrfTokenFor(preSession(ctx))}
        {...(idle ? { info: `You were signed out after ${minutes} minutes without activity.` } : {})}
      />,
    );
  });

  /** A refused attempt: counted (not audited: docs/portal.md, "Audit") and logged with the user it named. */
  const refused = (ctx: HcsContext, step: SignInStep, code: string, userId: string | null) => {
    deps.metrics.signInRefusals.inc({ step, code });
    deps.logger.info({ request_id: ctx.state.requestId, user_id: userId, step, code }, "portal sign-in refused");
  };
  /** The audit hook of the failure that locks a sign-in: the one refusal written to the audit log. */
  const lockout = (ctx: HcsContext) => (who: { userId: string; accountId: string }) =>
    auditOf<null>(ctx, deps, who, "portal.sign-in.locked", () => `user:${who.userId}`, {
      outcome: "denied",
      status: PORTAL_ERROR_STATUS.account_locked,
      code: "account_locked",
    });
  /**
   * The per-address throttle (per /64 for IPv6, as the API's anonymous limits), applied before the form is read:
   * false after answering 429.
   */
  const throttled = (ctx: HcsContext, step: SignInStep, page: () => VNode) => {
    if (throttle.allow(anonymousBucketOf(ctx.state.clientIp))) return false;
    refused(ctx, step, "rate_limited", null);
    ctx.set("Retry-After", "60");
    sendPage(ctx, page(), PORTAL_ERROR_STATUS.rate_limited);
    return true;
  };
  const TOO_MANY = "Too many sign-in attempts from your network. Wait a minute and try again.";

  router.post("/portal/sign-in", async (ctx) => {
    if (throttled(ctx, "password", () => <SignInPage csrf={csrfTokenFor(preSession(ctx))} error={TOO_MANY} />)) return;
    const pre = cookieToken(ctx, PRE_SESSION_COOKIE);
    const form = await readForm(ctx, pre, SignInForm);
    const again = (error: string, status: number) =>
      sendPage(ctx, <SignInPage csrf={csrfTokenFor(preSession(ctx))} error={error} email={form.email} />, status);
    const checked = await checkPassword(deps, form.email, form.password, lockout(ctx));
    if ("refused" in checked) {
      refused(ctx, "password", checked.refused.code, checked.userId);
      return again(checked.refused.message, PORTAL_ERROR_STATUS[checked.refused.code]);
    }
    const { user } = checked;
    const stage = firstStage(user);
    // The password alone completes a sign-in only without a second factor; otherwise failures keep counting.
    if (stage === "active") await clearFailures(deps, user.id);
    await switchSession(ctx, deps, user, stage);
    await recordPortalEvent(
      ctx,
      deps,
      { userId: user.id, accountId: user.accountId },
      "portal.sign-in",
      `user:${user.id}`,
    );
    seeOther(ctx, STAGE_HOME[stage]);
  });

  router.get("/portal/sign-in/code", async (ctx) => {
    const partial = await partialSession(ctx, deps, "password");
    if (partial) sendPage(ctx, <SecondFactorPage csrf={csrfTokenFor(partial.cookie)} />);
  });

  router.post("/portal/sign-in/code", async (ctx) => {
    const partial = await partialSession(ctx, deps, "password");
    if (!partial) return;
    if (
      throttled(ctx, "second_factor", () => <SecondFactorPage csrf={csrfTokenFor(partial.cookie)} error={TOO_MANY} />)
    )
      return;
    const form = await readForm(ctx, partial.cookie, CodeForm);
    try {
      const user = await checkSecondFactor(deps, partial.session.user.id, form.code, lockout(ctx));
      await switchSession(ctx, deps, user, "active");
      await recordPortalEvent(ctx, deps, partial.actor, "portal.sign-in.second-factor", `user:${user.id}`);
      seeOther(ctx, "/portal");
    } catch (err) {
      if (!(err instanceof PortalError)) throw err;
      refused(ctx, "second_factor", err.code, partial.session.user.id);
      sendPage(
        ctx,
        <SecondFactorPage csrf={csrfTokenFor(partial.cookie)} error={err.message} />,
        PORTAL_ERROR_STATUS[err.code],
      );
    }
  });

  const enrolPage = async (ctx: HcsContext, cookie: string, user: PortalUser, error?: string, status = 200) => {
    const secret = await pendingTotpSecret(deps, user.id);
    // Loaded on first use: every hcs-server command imports the app, and only enrolment draws a QR code.
    const { toDataURL } = await import("qrcode");
    const qr = await toDataURL(totpUri(secret, user.email), { errorCorrectionLevel: "M", margin: 1, width: 200 });
    sendPage(
      ctx,
      <EnrolPage csrf={csrfTokenFor(cookie)} qrDataUrl={qr} secret={secret} {...(error ? { error } : {})} />,
      status,
    );
  };

  router.get("/portal/mfa/enrol", async (ctx) => {
    const partial = await partialSession(ctx, deps, "enrol");
    if (partial) await enrolPage(ctx, partial.cookie, partial.session.user);
  });

  router.post("/portal/mfa/enrol", async (ctx) => {
    const partial = await partialSession(ctx, deps, "enrol");
    if (!partial) return;
    const form = await readForm(ctx, partial.cookie, CodeForm);
    const user = partial.session.user;
    try {
      const codes = await confirmTotpEnrolment(
        deps,
        user.id,
        form.code,
        auditOf(ctx, deps, partial.actor, "portal.mfa.enrol", () => `user:${user.id}`),
      );
      await clearFailures(deps, user.id);
      await switchSession(ctx, deps, user, "active");
      sendPage(ctx, <RecoveryCodesPage codes={codes} />);
    } catch (err) {
      if (!(err instanceof PortalError)) throw err;
      await enrolPage(ctx, partial.cookie, user, err.message, PORTAL_ERROR_STATUS[err.code]);
    }
  });

  router.get("/portal/invite", async (ctx) => {
    const token = typeof ctx.query.token === "string" ? ctx.query.token : "";
    const invited = /^[A-Za-z0-9_-]{43}$/.test(token) ? await openInvitation(deps, token) : null;
    if (!invited)
      return sendPage(
        ctx,
        <MessagePage
          title="Invitation not valid"
          message="This invitation link is used up or has expired. Ask whoever invited you for a new one."
          link={{ href: "/portal/sign-in", label: "Go to sign-in" }}
        />,
        410,
      );
    sendPage(
      ctx,
      <InvitePage
        csrf={csrfTokenFor(preSession(ctx))}
        token={token}
        email={invited.user.email}
        accountName={invited.accountName}
        role={invited.user.role}
      />,
    );
  });

  router.post("/portal/invite", async (ctx) => {
    const form = await readForm(ctx, cookieToken(ctx, PRE_SESSION_COOKIE), InviteForm);
    const invited = await openInvitation(deps, form.token);
    if (!invited) throw new PortalError("invite_invalid", "This invitation link is used up or has expired.");
    try {
      const actor = { userId: invited.user.id, accountId: invited.user.accountId };
      const user = await acceptInvitation(
        deps,
        form.token,
        form.password,
        auditOf(ctx, deps, actor, "portal.invite.accept", (u: PortalUser) => `user:${u.id}`),
      );
      const stage = mfaRequired(user.role) ? "enrol" : "active";
      await switchSession(ctx, deps, user, stage);
      seeOther(ctx, STAGE_HOME[stage]);
    } catch (err) {
      if (!(err instanceof PortalError) || err.code !== "invalid_input") throw err;
      sendPage(
        ctx,
        <InvitePage
          csrf={csrfTokenFor(preSession(ctx))}
          token={form.token}
          email={invited.user.email}
          accountName={invited.accountName}
          role={invited.user.role}
          error={err.message}
        />,
        400,
      );
    }
  });

  router.post("/portal/sign-out", async (ctx) => {
    const cookie = cookieToken(ctx, SESSION_COOKIE);
    const lookup = cookie ? await lookUpSession(deps, cookie, idleMsOf(deps)) : null;
    await readForm(ctx, cookie, z.object({}));
    if (cookie && lookup?.kind === "valid") {
      await endSession(deps, cookie);
      const user = lookup.session.user;
      await recordPortalEvent(
        ctx,
        deps,
        { userId: user.id, accountId: user.accountId },
        "portal.sign-out",
        `user:${user.id}`,
      );
    }
    setCookie(ctx, SESSION_COOKIE, null);
    seeOther(ctx, "/portal/sign-in");
  });
}

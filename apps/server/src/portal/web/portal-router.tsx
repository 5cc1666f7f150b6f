import Router from "@koa/router";
import type { AppDeps } from "../../app-deps.js";
import { isServiceError } from "../../errors.js";
import { requestGuard } from "../../http/rest-binding.js";
import { templatedRoutes } from "../../http/route-template.js";
import type { HcsContext, HcsMiddleware, HcsState } from "../../http/state.js";
import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from "../../store/availability.js";
import { PORTAL_FAVICON } from "../assets/favicon.js";
import { PORTAL_CSS } from "../assets/portal-css.js";
import { PORTAL_JS } from "../assets/portal-js.js";
import { isPortalError, PORTAL_ERROR_STATUS } from "../portal-errors.js";
import { MessagePage } from "../views/auth-pages.js";
import { mountAuditRoutes } from "./audit-routes.js";
import { mountAuthRoutes } from "./auth-routes.js";
import { mountBusinessAssociateRoutes } from "./business-associate-routes.js";
import { mountClaimRoutes } from "./claim-routes.js";
import { mountIncidentRoutes } from "./incident-routes.js";
import { mountPolicyRoutes } from "./policy-routes.js";
import { isPortalPath } from "./portal-path.js";
import { mountPracticeRoutes } from "./practice-routes.js";
import { mountPrivacyRoutes } from "./privacy-routes.js";
import { mountRecordsRoutes } from "./records-routes.js";
import { mountReportsRoutes } from "./reports-routes.js";
import { sendPage } from "./responses.js";
import { mountRestoreTestRoutes } from "./restore-test-routes.js";
import { mountRiskAssessmentRoutes } from "./risk-assessment-routes.js";
import { setSecurityHeaders } from "./security-headers.js";
import { mountSettingsRoutes } from "./settings-routes.js";
import { SignInThrottle } from "./sign-in-throttle.js";
import { mountTrainingRoutes } from "./training-routes.js";

/** Sign-in attempts per client address and minute, per process (the per-user lock-out is separate). */
const SIGN_INS_PER_MINUTE = 20;

/** Codes of the services' errors a page may show as they are (others are internal and answered 500). */
const SERVICE_STATUS: Record<string, number> = {
  forbidden: 403,
  not_found: 404,
  npi_not_found: 404,
  invalid_npi: 404,
  invalid_body: 400,
  invalid_query: 400,
  payload_too_large: 413,
  https_required: 403,
};

function errorPage(ctx: HcsContext, status: number, message: string): void {
  const title =
    status === 404
      ? "Not found"
      : status === 403
        ? "Not allowed"
        : status === 503
          ? "Temporarily unavailable"
          : status >= 500
            ? "Something went wrong"
            : "Cannot do that";
  sendPage(
    ctx,
    <MessagePage title={title} message={message} link={{ href: "/portal", label: "Back to the portal" }} />,
    status,
  );
}

/**
 * The customer portal at /portal on the API's listener (docs/portal.md): server-rendered pages over the same
 * services the API's operations use, the security headers on every answer, errors as pages (never the API's JSON).
 */
export function portalMiddleware(deps: AppDeps): HcsMiddleware {
  const router = new Router<HcsState>({ sensitive: true, strict: false });
  // Every page names its path template for the metrics as it starts (http/route-template.ts).
  const pages = templatedRoutes(router);
  const assets: Record<string, { type: string; body: string }> = {
    "/portal/assets/portal.css": { type: "text/css; charset=utf-8", body: PORTAL_CSS },
    "/portal/assets/portal.js": { type: "text/javascript; charset=utf-8", body: PORTAL_JS },
    "/portal/assets/favicon.svg": { type: "image/svg+xml", body: PORTAL_FAVICON },
  };
  for (const [path, asset] of Object.entries(assets))
    pages.get(path, (ctx) => {
      ctx.set("Content-Type", asset.type);
      ctx.set("Cache-Control", "public, max-age=3600");
      ctx.body = asset.body;
    });
  mountAuthRoutes(pages, deps, new SignInThrottle(SIGN_INS_PER_MINUTE, () => deps.now().getTime()));
  mountPracticeRoutes(pages, deps);
  mountRecordsRoutes(pages, deps);
  mountPolicyRoutes(pages, deps);
  mountRiskAssessmentRoutes(pages, deps);
  mountReportsRoutes(pages, deps);
  mountAuditRoutes(pages, deps);
  mountClaimRoutes(pages, deps);
  mountSettingsRoutes(pages, deps);
  mountIncidentRoutes(pages, deps);
  mountTrainingRoutes(pages, deps);
  mountBusinessAssociateRoutes(pages, deps);
  mountRestoreTestRoutes(pages, deps);
  mountPrivacyRoutes(pages, deps);
  const routes = router.routes();
  const allowed = router.allowedMethods();

  return async (ctx, next) => {
    if (!isPortalPath(ctx.path)) return next();
    setSecurityHeaders(ctx);
    try {
      // As for the API: a request a trusted proxy received over plain HTTP is refused, an oversized body too.
      requestGuard(ctx);
      await routes(ctx as never, async () => {
        await allowed(ctx as never, async () => undefined);
      });
      if (ctx.status === 404 && ctx.body === undefined) errorPage(ctx, 404, "There is no such page.");
    } catch (err) {
      if (isPortalError(err)) return errorPage(ctx, PORTAL_ERROR_STATUS[err.code], err.message);
      if (isServiceError(err) && SERVICE_STATUS[err.code])
        return errorPage(ctx, SERVICE_STATUS[err.code]!, err.message);
      // The database did not answer in time or is unreachable: nothing was done, and trying again shortly may work
      // (the API answers the same 503 unavailable).
      if (isStoreUnavailable(err)) {
        deps.logger.warn({ err, request_id: ctx.state.requestId, path: ctx.path }, "store unavailable");
        ctx.set("Retry-After", String(STORE_RETRY_AFTER_SECONDS));
        return errorPage(
          ctx,
          503,
          "The service's database is not answering right now, so nothing was done. Try again in a minute.",
        );
      }
      // A service that is busy or whose store did not answer (an operation's 503): its message says which.
      if (isServiceError(err) && err.code === "unavailable") {
        const retry = (err.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
        ctx.set("Retry-After", String(typeof retry === "number" ? retry : STORE_RETRY_AFTER_SECONDS));
        return errorPage(ctx, 503, err.message);
      }
      deps.logger.error({ err, request_id: ctx.state.requestId }, "portal page failed");
      errorPage(ctx, 500, `The page could not be shown. Quote request ${ctx.state.requestId} to support.`);
    }
  };
}

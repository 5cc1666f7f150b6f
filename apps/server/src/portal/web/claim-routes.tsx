import { z } from "zod";
import type { AppDeps } from "../../app-deps.js";
import { claimPracticeOperation, verifyClaimOperation } from "../../catalogue/practices/claims.js";
import type { Routes } from "../../http/route-template.js";
import { listClaims } from "../../services/claims/claims.js";
import { can } from "../roles.js";
import { ClaimsPage } from "../views/claims.js";
import { readForm } from "./forms.js";
import { invokeForPortal, isInputRefusal, portalErrorOf } from "./portal-operations.js";
import { requireSignedIn, type SignedIn, viewerOf } from "./portal-request.js";
import { seeOther, sendPage } from "./responses.js";

/**
 * Settings → Add a practice: the account's claims; adding one and verifying it invoke the operations the API
 * serves (`hipaa.claim_practice`, `verifyClaim`) through the same pipeline, audited with transport `portal`.
 */
export function mountClaimRoutes(router: Routes, deps: AppDeps): void {
  const page = async (signedIn: SignedIn, o: { notice?: string; error?: string } = {}) => (
    <ClaimsPage
      viewer={await viewerOf(deps, signedIn)}
      claims={await listClaims(deps.store.db, signedIn.session.user.accountId)}
      canChange={can(signedIn.session.user.role, "change_records")}
      {...o}
    />
  );

  router.get("/portal/settings/practices", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const notice =
      ctx.query.proved === "1"
        ? "Control proved: the practice is your account's."
        : ctx.query.added === "1"
          ? "Practice added. Publish the challenge below, then verify."
          : undefined;
    sendPage(ctx, await page(signedIn, notice ? { notice } : {}));
  });

  router.post("/portal/settings/practices", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const form = await readForm(
      ctx,
      signedIn.cookie,
      z.object({ npi: z.string().trim().max(20), domain: z.string().trim().max(253) }),
    );
    const result = await invokeForPortal(ctx, deps, signedIn, claimPracticeOperation, form);
    if (!result.ok) {
      if (isInputRefusal(result.error) || result.error.code === "npi_not_found" || result.error.code === "conflict") {
        sendPage(ctx, await page(signedIn, { error: result.error.message }), 400);
        return;
      }
      throw portalErrorOf(ctx, result);
    }
    seeOther(ctx, "/portal/settings/practices?added=1");
  });

  router.post("/portal/settings/practices/:claim/verify", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    await readForm(ctx, signedIn.cookie, z.object({}));
    const result = await invokeForPortal(ctx, deps, signedIn, verifyClaimOperation, { claim_id: ctx.params.claim });
    if (!result.ok) throw portalErrorOf(ctx, result);
    const claim = result.output as { status: string };
    if (claim.status === "proved") seeOther(ctx, "/portal/settings/practices?proved=1");
    else
      sendPage(
        ctx,
        await page(signedIn, {
          error:
            claim.status === "contested"
              ? "Control proved, but another account also proves control of this practice: HCS will decide between you."
              : "The challenge was not found yet (see the last check below). DNS changes can take a few minutes.",
        }),
      );
  });
}

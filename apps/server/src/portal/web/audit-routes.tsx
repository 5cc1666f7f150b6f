import type { AuditProofBundle } from "@hcs/protocol";
import type { AppDeps } from "../../app-deps.js";
import { accountEvent, recentAccountEvents } from "../../audit/account-events.js";
import { auditProofFor } from "../../audit/proofs.js";
import { isServiceError } from "../../errors.js";
import type { Routes } from "../../http/route-template.js";
import { PortalError } from "../portal-errors.js";
import { AuditPage, ProofPage, proofFileName } from "../views/audit.js";
import { requireSignedIn, type SignedIn, viewerOf } from "./portal-request.js";
import { sendPage } from "./responses.js";

/** The event id in the path: the API operation's own rule (a positive integer of at most 15 digits). */
const EVENT_ID = /^[1-9][0-9]{0,14}$/;

function eventIdOf(param: string | undefined): number {
  if (!param || !EVENT_ID.test(param))
    throw new PortalError("not_found", "There is no such audit event of your account.");
  return Number(param);
}

/** The proof bundle `GET /v1/a2a/audit/events/{id}/proof` returns, or null while no signed checkpoint covers it. */
async function proofOrPending(deps: AppDeps, signedIn: SignedIn, id: number): Promise<AuditProofBundle | null> {
  try {
    return await auditProofFor(deps, id, signedIn.session.user.accountId);
  } catch (err) {
    if (isServiceError(err) && err.code === "not_checkpointed") return null;
    if (isServiceError(err) && err.code === "not_found")
      throw new PortalError("not_found", "There is no such audit event of your account.");
    throw err;
  }
}

/** Audit: the account's recent events and each one's proof (page and JSON bundle), over the audit services. */
export function mountAuditRoutes(router: Routes, deps: AppDeps): void {
  router.get("/portal/audit", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const [events, viewer] = await Promise.all([
      recentAccountEvents(deps, signedIn.session.user.accountId),
      viewerOf(deps, signedIn),
    ]);
    sendPage(ctx, <AuditPage viewer={viewer} events={events} />);
  });

  router.get("/portal/audit/events/:id", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const id = eventIdOf(ctx.params.id);
    const event = await accountEvent(deps, signedIn.session.user.accountId, id);
    if (!event) throw new PortalError("not_found", "There is no such audit event of your account.");
    const [bundle, viewer] = await Promise.all([proofOrPending(deps, signedIn, id), viewerOf(deps, signedIn)]);
    sendPage(ctx, <ProofPage viewer={viewer} event={event} bundle={bundle} />);
  });

  router.get("/portal/audit/events/:id/proof.json", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const id = eventIdOf(ctx.params.id);
    const bundle = await proofOrPending(deps, signedIn, id);
    if (!bundle)
      throw new PortalError("not_found", "No signed checkpoint covers this event yet: its proof is pending.");
    ctx.set("Content-Type", "application/json; charset=utf-8");
    ctx.set("Content-Disposition", `attachment; filename="${proofFileName(id)}"`);
    ctx.set("Cache-Control", "no-store");
    ctx.body = JSON.stringify(bundle, null, 2);
  });
}

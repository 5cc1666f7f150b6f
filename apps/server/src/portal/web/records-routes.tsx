import { z } from "zod";
import { listBusinessAssociates } from "../../administrative/business-associates.js";
import { listIncidents } from "../../administrative/incidents.js";
import { groupBDownload, listPolicies, policyDownload } from "../../administrative/policies/policy-documents.js";
import { trainingStatus } from "../../administrative/training.js";
import type { AppDeps } from "../../app-deps.js";
import type { Routes } from "../../http/route-template.js";
import { listRestoreTests } from "../../readiness/restore-tests.js";
import { getAccount } from "../../services/accounts.js";
import { PortalError } from "../portal-errors.js";
import { can } from "../roles.js";
import { RecordsPage } from "../views/records.js";
import { ownedPractice } from "./owned-practice.js";
import { POLICY_DOCUMENT_PRICE } from "./policy-routes.js";
import { requireSignedIn, viewerOf } from "./portal-request.js";
import { sendPage } from "./responses.js";

const PolicyQuerySchema = z.object({ format: z.enum(["html", "markdown"]).default("html") });
/**
 * `generated`: how many documents the change just made generated (the redirect after it), for the notice;
 * `removed`: what a removal just took out of the records (a fixed word, never text from the query shown back).
 */
const RecordsQuerySchema = z.object({
  generated: z.coerce.number().int().min(0).max(24).optional(),
  removed: z.literal("business_associate").optional(),
  recorded: z.literal("restore_test").optional(),
});
const REMOVED_NOTICE = { business_associate: "The business associate was removed from the records." } as const;
const RECORDED_NOTICE = {
  restore_test: "The restore test was recorded; requirement 6 and the grade now count it.",
} as const;

/** The practice's administrative records (read) and policy downloads, over the administrative services. */
export function mountRecordsRoutes(router: Routes, deps: AppDeps): void {
  router.get("/portal/practices/:npi/records", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const query = RecordsQuerySchema.safeParse(ctx.query);
    const [incidents, training, associates, policies, viewer, account, restoreTests] = await Promise.all([
      listIncidents(deps, practice.npi),
      trainingStatus(deps, practice.npi),
      listBusinessAssociates(deps, practice.npi),
      listPolicies(deps, practice.npi, groupBDownload),
      viewerOf(deps, signedIn, practice.npi),
      getAccount(deps, signedIn.session.user.accountId),
      listRestoreTests(deps, practice.npi),
    ]);
    sendPage(
      ctx,
      <RecordsPage
        viewer={viewer}
        practiceName={practice.name}
        incidents={incidents}
        training={training}
        associates={associates}
        restoreTests={restoreTests}
        policies={policies}
        policyChanges={{
          allowed: can(signedIn.session.user.role, "change_records"),
          csrf: viewer.csrf,
          pricePerDocument: POLICY_DOCUMENT_PRICE,
          balance: account.credits,
          generated: query.success ? (query.data.generated ?? null) : null,
        }}
        {...(query.success && query.data.removed ? { notice: REMOVED_NOTICE[query.data.removed] } : {})}
        {...(query.success && query.data.recorded ? { notice: RECORDED_NOTICE[query.data.recorded] } : {})}
      />,
    );
  });

  router.get("/portal/practices/:npi/policies/:number", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const n = Number(ctx.params.number);
    if (!Number.isInteger(n) || n < 1 || n > 24) throw new PortalError("not_found", "There is no such policy.");
    const query = PolicyQuerySchema.safeParse(ctx.query);
    if (!query.success) throw new PortalError("invalid_input", "format: html or markdown");
    const doc = await policyDownload(deps, practice.npi, n, query.data.format);
    // The page's own CSP (its inline stylesheet by hash) in place of the portal's, which would refuse that style.
    for (const [name, value] of Object.entries(doc.headers)) ctx.set(name, value);
    ctx.set("Content-Type", doc.contentType);
    ctx.set("Content-Disposition", `attachment; filename="${doc.filename}"`);
    ctx.set("Cache-Control", "no-store");
    ctx.body = doc.body;
  });
}

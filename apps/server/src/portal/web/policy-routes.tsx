import { CREDIT_PRICES } from "@hcs/protocol";
import { z } from "zod";
import type { PolicyList } from "../../administrative/policies/policy-schemas.js";
import type { AppDeps } from "../../app-deps.js";
import { policiesOperation, range24 } from "../../catalogue/administrative/policies.js";
import type { Routes } from "../../http/route-template.js";
import { readForm } from "./forms.js";
import { ownedPractice } from "./owned-practice.js";
import { invokeForPortal, outputOrThrow } from "./portal-operations.js";
import { requireSignedIn } from "./portal-request.js";
import { seeOther } from "./responses.js";

/** Which policies a Records-page button generates: all 24, or one by number. */
const GenerateFormSchema = z.object({
  policy: z
    .string()
    .regex(/^(all|[1-9]|1\d|2[0-4])$/, "Choose a policy (1–24) or all.")
    .transform((v) => (v === "all" ? ("all" as const) : Number(v))),
});

/** The Records page's price for one generated document: the API's (hipaa.policies), shown on every button. */
export const POLICY_DOCUMENT_PRICE = CREDIT_PRICES.policy_document;

/**
 * Generating and regenerating policies from the Records page: through hipaa.policies — the Group B operation
 * every plan may call, priced per document — by the portal bridge, so the charge, the ledger row, the rate-limit
 * count and the audit event are the operation's own settlement (docs/portal.md, "Credits"). The answer is a
 * redirect to the Records page (a reload does not generate, or charge, twice).
 */
export function mountPolicyRoutes(router: Routes, deps: AppDeps): void {
  router.post("/portal/practices/:npi/policies/generate", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const form = await readForm(ctx, signedIn.cookie, GenerateFormSchema);
    const generate = form.policy === "all" ? range24() : [form.policy];
    const result = await invokeForPortal(ctx, deps, signedIn, policiesOperation, { npi: practice.npi, generate });
    const list = outputOrThrow(ctx, result) as PolicyList;
    seeOther(ctx, `/portal/practices/${practice.npi}/records?generated=${list.generated.length}#policies`);
  });
}

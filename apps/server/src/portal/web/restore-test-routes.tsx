import { z } from "zod";
import type { AppDeps } from "../../app-deps.js";
import { recordRestoreTestOperation } from "../../catalogue/administrative/restore-tests.js";
import type { Routes } from "../../http/route-template.js";
import type { HcsContext } from "../../http/state.js";
import { RestoreTestFormPage, type RestoreTestFormValues } from "../views/restore-test-form.js";
import { refusalReason } from "./form-refusal.js";
import { readForm } from "./forms.js";
import { ownedPractice } from "./owned-practice.js";
import { invokeForPortal, isInputRefusal, portalErrorOf } from "./portal-operations.js";
import { assertCan, requireSignedIn, type SignedIn, viewerOf } from "./portal-request.js";
import { seeOther, sendPage } from "./responses.js";

/** The form's fields as posted; the operation's schema checks the test itself. */
const RestoreTestFormSchema = z.strictObject({
  tested_on: z.string().max(10).default(""),
  system: z.string().max(400).default(""),
  data_restored: z.string().max(1000).default(""),
  hours: z.string().max(12).default(""),
  outcome: z.string().max(20).default("succeeded"),
});

/**
 * Recording a restore test through the API's own operation (recordRestoreTest) over the portal bridge: the same
 * checks, rate-limit count and audit event as an API call; the restore findings and the grade follow as they do there.
 */
export function mountRestoreTestRoutes(router: Routes, deps: AppDeps): void {
  const page = async (
    ctx: HcsContext,
    signedIn: SignedIn,
    practice: { npi: string; name: string },
    values: RestoreTestFormValues,
    status: number,
    error?: string,
  ) => {
    const viewer = await viewerOf(deps, signedIn, practice.npi);
    sendPage(
      ctx,
      <RestoreTestFormPage
        viewer={viewer}
        practiceName={practice.name}
        values={values}
        {...(error ? { error } : {})}
      />,
      status,
    );
  };

  router.get("/portal/practices/:npi/restore-tests/new", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    assertCan(signedIn, "change_records");
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    await page(ctx as unknown as HcsContext, signedIn, practice, {}, 200);
  });

  router.post("/portal/practices/:npi/restore-tests/new", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const c = ctx as unknown as HcsContext;
    const raw = await readForm(c, signedIn.cookie, z.record(z.string(), z.string()));
    assertCan(signedIn, "change_records");
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const form = RestoreTestFormSchema.safeParse(raw);
    if (!form.success) {
      await page(c, signedIn, practice, raw, 400, form.error.issues[0]?.message ?? "The form is not valid.");
      return;
    }
    const hours = Number(form.data.hours);
    if (!Number.isFinite(hours) || hours <= 0) {
      await page(c, signedIn, practice, raw, 400, "Not saved: time to restore: a number of hours above 0.");
      return;
    }
    const result = await invokeForPortal(c, deps, signedIn, recordRestoreTestOperation, {
      npi: practice.npi,
      tested_on: form.data.tested_on,
      system: form.data.system,
      data_restored: form.data.data_restored,
      time_to_restore_minutes: Math.max(1, Math.round(hours * 60)),
      outcome: form.data.outcome,
    });
    if (!result.ok) {
      if (isInputRefusal(result.error)) {
        await page(c, signedIn, practice, raw, 400, `Not saved: ${refusalReason(result.error)}.`);
        return;
      }
      throw portalErrorOf(c, result);
    }
    seeOther(c, `/portal/practices/${practice.npi}/records?recorded=restore_test`);
  });
}

import { CREDIT_PRICES } from "@hcs/protocol";
import { z } from "zod";
import { riskAssessmentView } from "../../administrative/risk-assessments.js";
import type { AppDeps } from "../../app-deps.js";
import { sraOperation } from "../../catalogue/administrative/risk-assessment.js";
import type { Routes } from "../../http/route-template.js";
import type { HcsContext } from "../../http/state.js";
import { PortalError } from "../portal-errors.js";
import { can } from "../roles.js";
import { initialState, readSraForm, SraFormFieldsSchema, type SraFormState } from "../sra-form.js";
import { RiskAssessmentPage, SraResultPage } from "../views/risk-assessment.js";
import { readForm } from "./forms.js";
import { ownedPractice } from "./owned-practice.js";
import { invokeForPortal, isInputRefusal, portalErrorOf } from "./portal-operations.js";
import { assertCan, requireSignedIn, type SignedIn, viewerOf } from "./portal-request.js";
import { seeOther, sendPage } from "./responses.js";

/** What running the assessment costs: the API's price for hipaa.sra. */
const SRA_PRICE = CREDIT_PRICES.sra;
const ResultQuerySchema = z.object({ ran: z.literal("1").optional() });

/**
 * The risk-assessment questionnaire as a guided form, and the assessment's result. Reading is free (the
 * questionnaire view the API's getRiskAssessment serves); submitting runs hipaa.sra — the Group B operation every
 * plan may call, at its price — by the portal bridge, so the charge, the ledger row, the rate-limit count and the
 * audit event are the operation's own settlement. Success redirects to the result (a reload does not charge twice).
 */
export function mountRiskAssessmentRoutes(router: Routes, deps: AppDeps): void {
  const formPage = async (
    ctx: HcsContext,
    signedIn: SignedIn,
    practice: { npi: string; name: string },
    state: (view: Awaited<ReturnType<typeof riskAssessmentView>>) => SraFormState,
    status = 200,
  ) => {
    const [view, viewer] = await Promise.all([
      riskAssessmentView(deps, practice.npi),
      viewerOf(deps, signedIn, practice.npi),
    ]);
    sendPage(
      ctx,
      <RiskAssessmentPage
        viewer={viewer}
        practiceName={practice.name}
        view={view}
        state={state(view)}
        canRun={can(signedIn.session.user.role, "change_records")}
        price={SRA_PRICE}
      />,
      status,
    );
  };

  router.get("/portal/practices/:npi/risk-assessment", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    await formPage(ctx, signedIn, practice, initialState);
  });

  router.post("/portal/practices/:npi/risk-assessment", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const fields = await readForm(ctx, signedIn.cookie, SraFormFieldsSchema);
    // Before the form is read against the questionnaire (the bridge checks again before anything is counted).
    assertCan(signedIn, "change_records");
    const view = await riskAssessmentView(deps, practice.npi);
    const read = readSraForm(view, fields);
    const responses = read.responses;
    if (!responses) return formPage(ctx, signedIn, practice, () => read.state, 400);
    const input = { npi: practice.npi, ...(Object.keys(responses).length > 0 ? { responses } : {}) };
    const result = await invokeForPortal(ctx, deps, signedIn, sraOperation, input);
    if (!result.ok && isInputRefusal(result.error)) {
      // The form's own checks mirror the operation's; should they ever differ, the answers are still kept.
      const state = { ...read.state, formError: `The assessment refused the answers: ${result.error.message}.` };
      return formPage(ctx, signedIn, practice, () => state, 400);
    }
    if (!result.ok) throw portalErrorOf(ctx, result);
    seeOther(ctx, `/portal/practices/${practice.npi}/risk-assessment/result?ran=1`);
  });

  router.get("/portal/practices/:npi/risk-assessment/result", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const query = ResultQuerySchema.safeParse(ctx.query);
    const [view, viewer] = await Promise.all([
      riskAssessmentView(deps, practice.npi),
      viewerOf(deps, signedIn, practice.npi),
    ]);
    const report = view.assessment.report;
    if (!report) throw new PortalError("not_found", "No risk assessment has been run for this practice yet.");
    sendPage(
      ctx,
      <SraResultPage
        viewer={viewer}
        practiceName={practice.name}
        report={report}
        justRun={query.success && query.data.ran === "1"}
        price={SRA_PRICE}
      />,
    );
  });
}

import type Router from "@koa/router";
import { dateOf } from "../../administrative/calendar-date.js";
import type { IncidentView } from "../../administrative/incident-schema.js";
import { getIncidentRow, incidentView } from "../../administrative/incidents.js";
import type { AppDeps } from "../../app-deps.js";
import { isServiceError } from "../../errors.js";
import type { HcsContext, HcsState } from "../../http/state.js";
import { createIncidentOperation, patchIncidentOperation } from "../../routes/group-a/incidents.js";
import { PortalError } from "../portal-errors.js";
import { IncidentFormPage } from "../views/incident-form.js";
import { refusalReason } from "./form-refusal.js";
import {
  IncidentFormError,
  IncidentFormSchema,
  type IncidentFormValues,
  incidentFormValuesOf,
  incidentInputOf,
} from "./incident-form-fields.js";
import { invokeForPortal, isInputRefusal, portalErrorOf } from "./portal-operations.js";
import { type SignedIn, viewerOf } from "./portal-request.js";
import { mountRecordEditor } from "./record-editor.js";
import { sendPage } from "./responses.js";

/**
 * Recording and moving on incidents through the API's own operations (createIncident, updateIncident) over the
 * portal bridge: the same checks, rate-limit count and audit event as an API call. A refused form comes back with
 * the person's answers and the reason.
 */
export function mountIncidentRoutes(router: Router<HcsState>, deps: AppDeps): void {
  /** The practice's incident `id` (404 for another practice's or account's: its existence does not leak). */
  const incidentOf = async (signedIn: SignedIn, npi: string, id: string | undefined): Promise<IncidentView> => {
    const row = await getIncidentRow(deps, String(id), signedIn.session.user.accountId).catch((err: unknown) => {
      if (isServiceError(err) && err.code === "not_found") return null;
      throw err;
    });
    if (!row || row.npi !== npi) throw new PortalError("not_found", "There is no such incident for this practice.");
    return incidentView(row, dateOf(deps.now()));
  };

  const formPage = async (
    ctx: HcsContext,
    signedIn: SignedIn,
    practice: { npi: string; name: string },
    incident: IncidentView | null,
    values: IncidentFormValues,
    status: number,
    messages: { error?: string; notice?: string } = {},
  ) =>
    sendPage(
      ctx,
      <IncidentFormPage
        viewer={await viewerOf(deps, signedIn, practice.npi)}
        practiceName={practice.name}
        incident={incident}
        values={values}
        {...messages}
      />,
      status,
    );

  /**
   * Checks the form and runs `operation` with the record it describes; answers the form again (400) with the
   * reason when the form or the operation refuses it, and returns the saved incident otherwise.
   */
  const saved = async (
    ctx: HcsContext,
    signedIn: SignedIn,
    raw: IncidentFormValues,
    practice: { npi: string; name: string },
    incident: IncidentView | null,
  ): Promise<IncidentView | null> => {
    const refuse = async (error: string) => {
      await formPage(ctx, signedIn, practice, incident, raw, 400, { error });
      return null;
    };
    const form = IncidentFormSchema.safeParse(raw);
    if (!form.success) return refuse(form.error.issues[0]?.message ?? "The form is not valid.");
    let record: ReturnType<typeof incidentInputOf>;
    try {
      record = incidentInputOf(form.data);
    } catch (err) {
      if (err instanceof IncidentFormError) return refuse(err.message);
      throw err;
    }
    const result = incident
      ? await invokeForPortal(ctx, deps, signedIn, patchIncidentOperation, { id: incident.id, ...record })
      : await invokeForPortal(ctx, deps, signedIn, createIncidentOperation, { npi: practice.npi, ...record });
    if (!result.ok) {
      if (isInputRefusal(result.error)) return refuse(`The incident was not saved: ${refusalReason(result.error)}.`);
      throw portalErrorOf(ctx, result);
    }
    return result.output as IncidentView;
  };

  mountRecordEditor<IncidentView>(router, deps, {
    segment: "incidents",
    load: incidentOf,
    blank: () => ({ category: "other", status: "open", phi_involved: "no", discovered_on: dateOf(deps.now()) }),
    valuesOf: incidentFormValuesOf,
    savedNotice: "Saved. The determination and the clock are as of today.",
    page: formPage,
    save: async (ctx, signedIn, raw, practice, incident) =>
      (await saved(ctx, signedIn, raw, practice, incident))?.id ?? null,
  });
}

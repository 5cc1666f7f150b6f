import { dateOf } from "../../administrative/calendar-date.js";
import type { IncidentView } from "../../administrative/incident-schema.js";
import { getIncidentRow, incidentView } from "../../administrative/incidents.js";
import type { AppDeps } from "../../app-deps.js";
import { createIncidentOperation, patchIncidentOperation } from "../../catalogue/administrative/incidents.js";
import { isServiceError } from "../../errors.js";
import type { Routes } from "../../http/route-template.js";
import type { HcsContext } from "../../http/state.js";
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
import type { SignedIn } from "./portal-request.js";
import { mountRecordEditor } from "./record-editor.js";

/**
 * Recording and moving on incidents through the API's own operations (createIncident, updateIncident) over the
 * portal bridge: the same checks, rate-limit count and audit event as an API call. A refused form comes back with
 * the person's answers and the reason.
 */
export function mountIncidentRoutes(router: Routes, deps: AppDeps): void {
  /** The practice's incident `id` (404 for another practice's or account's: its existence does not leak). */
  const incidentOf = async (signedIn: SignedIn, npi: string, id: string | undefined): Promise<IncidentView> => {
    const row = await getIncidentRow(deps, String(id), signedIn.session.user.accountId).catch((err: unknown) => {
      if (isServiceError(err) && err.code === "not_found") return null;
      throw err;
    });
    if (!row || row.npi !== npi) throw new PortalError("not_found", "There is no such incident for this practice.");
    return incidentView(row, dateOf(deps.now()));
  };

  /** Checks the form and runs the create or update operation with the record it describes. */
  const save = async (
    ctx: HcsContext,
    signedIn: SignedIn,
    raw: IncidentFormValues,
    practice: { npi: string; name: string },
    incident: IncidentView | null,
  ): Promise<{ id: string } | { refused: string }> => {
    const refuse = (error: string) => ({ refused: error });
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
    return { id: (result.output as IncidentView).id };
  };

  mountRecordEditor<IncidentView>(router, deps, {
    segment: "incidents",
    load: incidentOf,
    blank: () => ({ category: "other", status: "open", phi_involved: "no", discovered_on: dateOf(deps.now()) }),
    valuesOf: incidentFormValuesOf,
    savedNotice: "Saved. The determination and the clock are as of today.",
    render: ({ recorded, ...props }) => <IncidentFormPage {...props} incident={recorded} />,
    save,
  });
}

import { z } from "zod";
import { vendorIdOf } from "../../administrative/business-associate.js";
import { type BusinessAssociates, listBusinessAssociates } from "../../administrative/business-associates.js";
import type { AppDeps } from "../../app-deps.js";
import { baaOperation } from "../../catalogue/administrative/baa.js";
import type { Routes } from "../../http/route-template.js";
import type { HcsContext } from "../../http/state.js";
import { PortalError } from "../portal-errors.js";
import { BusinessAssociateFormPage, type BusinessAssociateFormValues } from "../views/business-associate-form.js";
import { refusalReason } from "./form-refusal.js";
import { readForm } from "./forms.js";
import { ownedPractice } from "./owned-practice.js";
import { invokeForPortal, isInputRefusal, portalErrorOf } from "./portal-operations.js";
import { assertCan, requireSignedIn, type SignedIn } from "./portal-request.js";
import { mountRecordEditor } from "./record-editor.js";
import { seeOther } from "./responses.js";

type Recorded = BusinessAssociates["business_associates"][number];

/** The removal form: only the confirmation box (the CSRF field is checked by readForm). */
const RemoveFormSchema = z.object({ confirm: z.string().max(10).optional() });

/** The form's fields (strings as posted); the operation's BusinessAssociateSchema checks the vendor itself. */
const BusinessAssociateFormSchema = z.strictObject({
  name: z.string().max(200).default(""),
  domain: z.string().max(253).default(""),
  services: z.string().max(2000).default(""),
  phi_access: z.literal("on").optional(),
  baa_status: z.string().max(20).default("none"),
  signed_on: z.string().max(10).default(""),
  expires_on: z.string().max(10).default(""),
});

/** The vendor the form describes, as hipaa.baa's `upsert` takes it. */
function vendorOf(form: z.output<typeof BusinessAssociateFormSchema>, vendorId: string) {
  return {
    vendor_id: vendorId,
    name: form.name,
    ...(form.domain.trim() ? { domain: form.domain } : {}),
    services: form.services
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
    phi_access: form.phi_access === "on",
    baa_status: form.baa_status,
    signed_on: form.signed_on || null,
    expires_on: form.expires_on || null,
  };
}

const valuesOf = (b: Recorded): BusinessAssociateFormValues => ({
  name: b.name,
  domain: b.domain ?? "",
  services: b.services.join(", "),
  ...(b.phi_access ? { phi_access: "on" } : {}),
  baa_status: b.baa_status,
  signed_on: b.signed_on ?? "",
  expires_on: b.expires_on ?? "",
});

/**
 * Adding and editing business associates and their BAA dates through the API's own operation (hipaa.baa, upsert)
 * over the portal bridge: the same checks, rate-limit count and audit event as an API call.
 */
export function mountBusinessAssociateRoutes(router: Routes, deps: AppDeps): void {
  const recordedOf = async (npi: string, vendorId: string | undefined): Promise<Recorded> => {
    const list = await listBusinessAssociates(deps, npi);
    const found = list.business_associates.find((b) => b.vendor_id === vendorId);
    if (!found) throw new PortalError("not_found", "There is no such business associate for this practice.");
    return found;
  };

  /** Upserts what the form describes under its vendor id (a new one must not replace another). */
  const save = async (
    ctx: HcsContext,
    signedIn: SignedIn,
    raw: Record<string, string>,
    practice: { npi: string; name: string },
    recorded: Recorded | null,
  ): Promise<{ id: string } | { refused: string }> => {
    const refuse = (error: string) => ({ refused: error });
    const form = BusinessAssociateFormSchema.safeParse(raw);
    if (!form.success) return refuse(form.error.issues[0]?.message ?? "The form is not valid.");
    const vendorId = recorded?.vendor_id ?? vendorIdOf({ name: form.data.name });
    if (!recorded) {
      // An upsert replaces a vendor of the same id: adding must not overwrite one recorded under a similar name.
      const list = await listBusinessAssociates(deps, practice.npi);
      const same = list.business_associates.find((b) => b.vendor_id === vendorId);
      if (same) return refuse(`${same.name} is recorded already: open it from the records page to edit it.`);
    }
    const result = await invokeForPortal(ctx, deps, signedIn, baaOperation, {
      npi: practice.npi,
      action: "upsert",
      vendor: vendorOf(form.data, vendorId),
    });
    if (!result.ok) {
      if (isInputRefusal(result.error)) return refuse(`Not saved: ${refusalReason(result.error)}.`);
      throw portalErrorOf(ctx, result);
    }
    return { id: vendorId };
  };

  const formPage = mountRecordEditor<Recorded>(router, deps, {
    segment: "business-associates",
    load: (_signedIn, npi, id) => recordedOf(npi, id),
    blank: () => ({ baa_status: "none", phi_access: "on" }),
    valuesOf,
    savedNotice: "Saved.",
    render: (props) => <BusinessAssociateFormPage {...props} />,
    save,
  });

  // Removal has its own form (a required confirmation box): the edit form's post never removes.
  router.post("/portal/practices/:npi/business-associates/:vendor/remove", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const form = await readForm(ctx, signedIn.cookie, RemoveFormSchema);
    assertCan(signedIn, "change_records");
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const recorded = await recordedOf(practice.npi, ctx.params.vendor);
    if (form.confirm !== "yes") {
      await formPage(ctx, signedIn, practice, recorded, valuesOf(recorded), 400, {
        error: `Tick "Remove ${recorded.name}" to remove it.`,
      });
      return;
    }
    const result = await invokeForPortal(ctx, deps, signedIn, baaOperation, {
      npi: practice.npi,
      action: "remove",
      vendor_id: recorded.vendor_id,
    });
    if (!result.ok) throw portalErrorOf(ctx, result);
    seeOther(ctx, `/portal/practices/${practice.npi}/records?removed=business_associate`);
  });
}

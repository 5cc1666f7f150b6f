import { z } from "zod";
import { ServiceError } from "../errors.js";
import type { ServiceDeps } from "../services/deps.js";
import { iso } from "../services/deps.js";
import {
  type BusinessAssociate,
  type BusinessAssociateInput,
  BusinessAssociateSchema,
  baaCoverage,
  vendorIdOf,
} from "./business-associate.js";
import { dateOf } from "./calendar-date.js";

export const BusinessAssociateViewSchema = z.object({
  vendor_id: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  services: z.array(z.string()),
  phi_access: z.boolean(),
  baa_status: z.string(),
  signed_on: z.string().nullable(),
  expires_on: z.string().nullable(),
  /** The BAA's state today: current, expiring (within 30 days), expired, or missing. */
  coverage: z.enum(["current", "expiring", "expired", "missing"]),
  updated_at: z.iso.datetime(),
});

export const BusinessAssociatesSchema = z
  .object({
    npi: z.string(),
    business_associates: z.array(BusinessAssociateViewSchema),
    summary: z.object({
      with_phi_access: z.int(),
      covered: z.int(),
      missing: z.int(),
      expired: z.int(),
      expiring: z.int(),
    }),
  })
  .meta({ id: "BusinessAssociates", description: "A practice's business associates and the state of their BAAs" });
export type BusinessAssociates = z.infer<typeof BusinessAssociatesSchema>;

/** The practice's business associates, by vendor id, with each BAA's state today. */
export async function listBusinessAssociates(deps: ServiceDeps, npi: string): Promise<BusinessAssociates> {
  const rows = await deps.store.db
    .selectFrom("business_associates")
    .selectAll()
    .where("npi", "=", npi)
    .orderBy("vendor_id")
    .execute();
  const today = dateOf(deps.now());
  const list = rows.map((r) => {
    const v = JSON.parse(r.record) as BusinessAssociate;
    return {
      vendor_id: r.vendor_id,
      name: v.name,
      domain: v.domain ?? null,
      services: v.services,
      phi_access: v.phi_access,
      baa_status: v.baa_status,
      signed_on: v.signed_on,
      expires_on: v.expires_on,
      coverage: baaCoverage(v, today),
      updated_at: r.updated_at,
    };
  });
  const phi = list.filter((v) => v.phi_access);
  const n = (c: string) => phi.filter((v) => v.coverage === c).length;
  return {
    npi,
    business_associates: list,
    summary: {
      with_phi_access: phi.length,
      covered: n("current") + n("expiring"),
      missing: n("missing"),
      expired: n("expired"),
      expiring: n("expiring"),
    },
  };
}

/** Adds or replaces a business associate (keyed by vendor_id, derived from the name when not given). */
export async function upsertBusinessAssociate(deps: ServiceDeps, npi: string, input: BusinessAssociateInput) {
  const vendorId = vendorIdOf(input);
  const record = JSON.stringify({ ...input, vendor_id: vendorId });
  const now = iso(deps.now());
  await deps.store.db
    .insertInto("business_associates")
    .values({ npi, vendor_id: vendorId, record, updated_at: now })
    .onConflict((oc) => oc.columns(["npi", "vendor_id"]).doUpdateSet({ record, updated_at: now }))
    .execute();
}

export async function removeBusinessAssociate(deps: ServiceDeps, npi: string, vendorId: string) {
  const res = await deps.store.db
    .deleteFrom("business_associates")
    .where("npi", "=", npi)
    .where("vendor_id", "=", vendorId)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw new ServiceError("not_found", `no business associate ${vendorId}`);
}

export { BusinessAssociateSchema };

import { z } from "zod";
import { addDays, CalendarDateSchema } from "./calendar-date.js";

export const BAA_STATUSES = ["signed", "pending", "none", "terminated"] as const;

const DomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
    "a domain name such as vendor.example",
  );

/** A business associate as the practice records it (164.308(b), 164.504(e)). */
export const BusinessAssociateSchema = z
  .strictObject({
    vendor_id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "lower-case letters, digits, _ and -, up to 64")
      .optional(),
    name: z.string().trim().min(1).max(200),
    domain: DomainSchema.optional(),
    services: z.array(z.string().trim().min(1).max(200)).max(20).default([]),
    phi_access: z.boolean(),
    baa_status: z.enum(BAA_STATUSES),
    signed_on: CalendarDateSchema.nullable().default(null),
    expires_on: CalendarDateSchema.nullable().default(null),
  })
  .superRefine((v, ctx) => {
    if (v.baa_status === "signed" && !v.signed_on)
      ctx.addIssue({ code: "custom", path: ["signed_on"], message: "a signed BAA needs its signed_on date" });
    if (v.signed_on && v.expires_on && v.expires_on < v.signed_on)
      ctx.addIssue({ code: "custom", path: ["expires_on"], message: "expires before it was signed" });
  });
export type BusinessAssociateInput = z.output<typeof BusinessAssociateSchema>;
export type BusinessAssociate = BusinessAssociateInput & { readonly vendor_id: string };

/** The BAA's state on `today`: current, expiring (within 30 days), expired, or missing (not signed). */
export type BaaCoverage = "current" | "expiring" | "expired" | "missing";
export const EXPIRING_WITHIN_DAYS = 30;

export function baaCoverage(
  v: { readonly baa_status: string; readonly expires_on: string | null },
  today: string,
): BaaCoverage {
  if (v.baa_status !== "signed") return "missing";
  if (v.expires_on && v.expires_on < today) return "expired";
  if (v.expires_on && v.expires_on <= addDays(today, EXPIRING_WITHIN_DAYS)) return "expiring";
  return "current";
}

/** A stable id from the name when the practice gives none ("Acme Billing, Inc." → "acme-billing-inc"). */
export function vendorIdOf(v: { vendor_id?: string | undefined; name: string }): string {
  if (v.vendor_id) return v.vendor_id;
  const slug = v.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return slug || "vendor";
}

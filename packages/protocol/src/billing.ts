import { z } from "zod";
import { CREDIT_PRICES, type MeteredOperation, PLANS } from "./plans.js";

// The plan table (prices and plans) lives in plans.ts (no zod: the one object every reader shares); re-exported here.
export {
  CREDIT_PRICES,
  FREE_TIER_CREDITS,
  GROUP_A_PLANS,
  type MeteredOperation,
  PLAN_TABLE,
  PLANS,
  type Plan,
  type PlanTerms,
  planTermsOf,
} from "./plans.js";
// RATE_LIMITS lives in rate-limits.ts (no zod: worker threads and the hot path import it through
// @hcs/protocol/schema-free); re-exported here so that the package entry is unchanged.
export { RATE_LIMITS } from "./rate-limits.js";

export const PlanSchema = z.enum(PLANS);

export const TIERS = ["standard", "bulk"] as const;
export const TierSchema = z.enum(TIERS);
export type Tier = z.infer<typeof TierSchema>;

/** Largest request body accepted, in bytes (10 MiB: docs/api.md#errors). */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

/**
 * Largest body of a request that carries no valid credential (no API key the server accepts; a scan upload's agent
 * signature is its own): a free-key request or a scanner registration is well under 1 KiB. Beyond it: 413 before
 * the body is read.
 */
export const MAX_ANONYMOUS_REQUEST_BYTES = 64 * 1024;

/** Deepest nesting of arrays and objects a JSON body may have; deeper is refused (400 invalid_json) unparsed. */
export const MAX_JSON_DEPTH = 64;

export const MeteredOperationSchema = z.enum(Object.keys(CREDIT_PRICES) as [MeteredOperation, ...MeteredOperation[]]);

/** Free-tier key request (POST /v1/a2a/keys). */
export const FreeKeyRequestSchema = z
  .strictObject({
    email: z.email().max(254),
    organization: z.string().trim().min(1).max(200),
  })
  .meta({ id: "FreeKeyRequest" });
export type FreeKeyRequest = z.infer<typeof FreeKeyRequestSchema>;

export const IssuedKeySchema = z
  .object({
    api_key: z.string(),
    key_id: z.string(),
    account_id: z.string(),
    plan: PlanSchema,
    tier: TierSchema,
    credits: z.int().min(0),
    created_at: z.iso.datetime(),
    note: z.string(),
  })
  .meta({ id: "IssuedKey", description: "A newly issued API key; the key is shown only in this response" });
export type IssuedKey = z.infer<typeof IssuedKeySchema>;

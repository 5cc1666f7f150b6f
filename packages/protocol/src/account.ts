import { z } from "zod";
import { MeteredOperationSchema, PlanSchema, TierSchema } from "./billing.js";

/** One metered operation's use within a period, from the account's credit ledger. */
export const UsageLineSchema = z
  .object({
    operation: MeteredOperationSchema,
    /** Calls charged (one per ledger reference: a batch, a reservation and its settlement are one call each). */
    calls: z.int().min(0),
    /** Credits those calls took. */
    charged: z.int().min(0),
    /** Credits given back in the period for calls of this operation (a failed scan, a reservation not used). */
    refunded: z.int().min(0),
    /** charged − refunded. */
    credits: z.int(),
  })
  .meta({ id: "UsageLine" });
export type UsageLine = z.infer<typeof UsageLineSchema>;

/** What one statement period (a plan year, or the part of one before a change of plan) cost and committed. */
export const UsageStatementSchema = z
  .object({
    /** Inclusive start and exclusive end of the period. */
    start: z.iso.datetime(),
    end: z.iso.datetime(),
    /** `open`: the current period (figures so far); `closed`: ended. */
    state: z.enum(["open", "closed"]),
    plan: PlanSchema,
    /** By operation, those with any charge or refund in the period, in the price table's order. */
    usage: z.array(UsageLineSchema),
    /** Credits used in the period: the sum of the lines' `credits`. */
    usage_credits: z.int(),
    /** The plan's annual minimum for this period (pro rata when a change of plan cut the year short). */
    annual_minimum: z.int().min(0),
    /** What usage left of the minimum (billed at the period's close; so far, for the open period). */
    minimum_shortfall: z.int().min(0),
    /** Credits added in the period other than refunds: the opening balance, operator grants and top-ups. */
    credits_added: z.int().min(0),
    /** The balance at the period's start, and at its end (now, for the open period). */
    opening_balance: z.int(),
    closing_balance: z.int(),
  })
  .meta({ id: "UsageStatement" });
export type UsageStatement = z.infer<typeof UsageStatementSchema>;

/** One fixed rate-limit window as the pipeline applies it to the caller. */
export const RateWindowSchema = z.object({
  window_seconds: z.int().min(1),
  limit: z.int().min(1),
  /** Calls counted in the current window before this one. */
  used: z.int().min(0),
  remaining: z.int().min(0),
  resets_at: z.iso.datetime(),
});

export const RateLimitsSchema = z
  .object({
    /** Whose calls the windows count: the API key of this call, or the portal user (docs/api.md#rate-limits). */
    counted_per: z.enum(["key", "portal_user"]),
    group_b: z.object({ windows: z.array(RateWindowSchema) }),
    /** Null when the plan has no Group A access. */
    group_a: z.object({ windows: z.array(RateWindowSchema) }).nullable(),
  })
  .meta({ id: "RateLimits" });

export const PlanTermsSchema = z
  .object({
    plan: PlanSchema,
    title: z.string(),
    group_a: z.boolean(),
    opening_credits: z.int().min(0),
    annual_minimum: z.int().min(0),
    self_service: z.boolean(),
    summary: z.string(),
  })
  .meta({ id: "PlanTerms" });
export type PlanTermsView = z.infer<typeof PlanTermsSchema>;

/** `GET /v1/a2a/account` (`hipaa.account`): the caller's own account. */
export const AccountOverviewSchema = z
  .object({
    account_id: z.string(),
    name: z.string(),
    plan: PlanSchema,
    tier: TierSchema,
    /** Credits the account holds now (the ledger's latest balance). */
    balance: z.int().min(0),
    /** The plan's row of the plan table (every plan, and the prices: the agent card and docs/api.md#plans-and-prices). */
    plan_terms: PlanTermsSchema,
    rate_limits: RateLimitsSchema,
    current_period: UsageStatementSchema,
    /** Earlier periods, newest first. */
    past_periods: z.array(UsageStatementSchema),
    /** Where to ask for credits, a plan change or Enterprise terms (null when the operator has not set one). */
    contact_email: z.string().nullable(),
  })
  .meta({ id: "AccountOverview" });
export type AccountOverview = z.infer<typeof AccountOverviewSchema>;

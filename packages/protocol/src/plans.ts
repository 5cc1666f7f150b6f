// The plan table: plain data, no zod, so that every part of the service reads the same object (the call pipeline's
// prices, the account operation, the agent card) and docs/api.md#plans-and-prices is tested against it.

/** The billing plans an account can be on. */
export const PLANS = ["free", "professional", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

/** What one plan gives and commits to (docs/api.md#plans-and-prices). */
export interface PlanTerms {
  /** Shown to customers. */
  readonly title: string;
  /** Whether the account's keys may call Group A (practice management: docs/security.md#authorization). */
  readonly group_a: boolean;
  /** Credits a new account of the plan starts with (the free tier's allowance; paid plans start with what was bought). */
  readonly opening_credits: number;
  /**
   * Credits the account commits to use per plan year, credited against its usage: usage counts towards it, and what
   * usage leaves of it at the year's close is the statement's `minimum_shortfall`.
   */
  readonly annual_minimum: number;
  /** Obtained without an operator (`POST /v1/a2a/keys`); the others through the contact address. */
  readonly self_service: boolean;
  /** One line for documents and the agent card. */
  readonly summary: string;
}

/**
 * The single source of what the service charges: one table of per-check prices (in credits; one credit is one
 * currency unit of the service's price list) that every plan pays, the plans' terms, and the length of the period a
 * usage statement covers. The call pipeline charges `prices` (CREDIT_PRICES is this object), the agent card and
 * `GET /v1/a2a/account` publish it, and docs/api.md's plan and price tables are tested against it.
 */
export const PLAN_TABLE = {
  /**
   * Credits per call of each metered operation (the ledger names a charge by these keys): a grade lookup, a breach
   * check and findings 25; a full scan with its report 150; a risk assessment 500. A batch is charged `grade` per NPI
   * that has one; policies are free to list and `policy_document` per document generated.
   */
  prices: {
    grade: 25,
    breach: 25,
    findings: 25,
    threat_intelligence: 25,
    full_scan: 150,
    sra: 500,
    evidence: 25,
    breach_probability: 25,
    vendor_risk: 25,
    compliance_state: 25,
    compliance_delta: 25,
    policy_document: 25,
  },
  /** A usage statement covers one plan year from the day the account took its plan (a change of plan starts anew). */
  statement_period_months: 12,
  plans: {
    free: {
      title: "Free",
      group_a: false,
      opening_credits: 500,
      annual_minimum: 0,
      self_service: true,
      summary: "500 credits once, Group B operations at the per-check prices; no commitment",
    },
    professional: {
      title: "Professional",
      group_a: true,
      opening_credits: 0,
      annual_minimum: 5000,
      self_service: false,
      summary:
        "Group A and Group B at the per-check prices; an annual minimum of 5,000 credits, credited against usage",
    },
    enterprise: {
      title: "Enterprise",
      group_a: true,
      opening_credits: 0,
      annual_minimum: 5000,
      self_service: false,
      summary:
        "as Professional, with volume (bulk tier, 600 requests a minute) and terms agreed through the contact address",
    },
  } satisfies Record<Plan, PlanTerms>,
} as const;

/** Credit price of each metered operation: the plan table's per-check prices. */
export const CREDIT_PRICES = PLAN_TABLE.prices;
export type MeteredOperation = keyof typeof CREDIT_PRICES;

/** Plans whose keys may call Group A (docs/security.md#authorization: Professional or Enterprise). */
export const GROUP_A_PLANS: readonly Plan[] = PLANS.filter((p) => PLAN_TABLE.plans[p].group_a);

/** Credits a free-tier account starts with (docs/api.md). */
export const FREE_TIER_CREDITS: number = PLAN_TABLE.plans.free.opening_credits;

/** A plan's row of the table with its id, as the account answer and the agent card list it. */
export const planTermsOf = (plan: Plan): PlanTerms & { readonly plan: Plan } => ({ plan, ...PLAN_TABLE.plans[plan] });

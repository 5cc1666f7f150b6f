// The accounting layer: what a call may cost and how often it may come — the rate policy, counting calls, the
// quick read, charging credits and settling a call's count, charge and audit event in one transaction. The one seam
// below the pipeline (operations/invoke.ts) and the protocol endpoints: nothing outside accounting/ imports its
// modules but this one, and nothing outside it writes rate_limits, credits or the ledger on a call's path
// (import-graph.test.ts holds both; docs/architecture.md#the-accounting-layer). HTTP keeps only the headers
// (http/rate-headers.ts).

export { countedWindows, countRequest, pruneRateLimits, wouldExceed } from "./counting.js";
export { insufficientCredits, withUpgradeContact } from "./credit-errors.js";
export { chargeCredits, grantCredits } from "./credits.js";
export {
  bindingWindow,
  groupAPolicy,
  groupBPolicy,
  type RatePolicy,
  rateLimitedError,
  type WindowState,
} from "./rate-policy.js";
export { type AuditSource, isEmptyPlan, type Settled, type SettlementPlan, settle } from "./settle.js";

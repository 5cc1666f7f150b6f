import type { CategoryName, FindingParsed, JsonObject } from "@hcs/protocol";
import type { CheckStatus } from "./check-status.js";
import type { ScanContext } from "./context.js";

export interface CheckOutcome {
  readonly status: CheckStatus;
  readonly detail?: string;
  readonly findings?: readonly FindingParsed[];
  readonly facts?: JsonObject;
}

/** One external check: gathers through the scan context (IO) and judges with a pure evaluate function. */
export interface ExternalCheck {
  /** Stable id, `<area>.<check>` (e.g. `email.spf`); its findings' check_ids start with it. */
  readonly id: string;
  readonly category: CategoryName;
  /** What is assessed, for "not assessed" findings ("SPF record"). */
  readonly title: string;
  /** Which part of the target the check examines (names the subject of its "not assessed" finding). */
  readonly subject: "domain" | "site";
  /** The check's own deadline; the scan's budget can end it sooner. */
  readonly timeoutMs: number;
  run(ctx: ScanContext, signal: AbortSignal): Promise<CheckOutcome>;
}

/** A check as the scan result reports it. */
export interface CheckRecord {
  readonly id: string;
  readonly category: CategoryName;
  readonly status: CheckStatus;
  readonly duration_ms: number;
  readonly detail?: string;
}

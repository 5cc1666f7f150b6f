import type { CategoryName, FindingParsed, JsonObject } from "@hcs/protocol";
import type { ScanContext } from "./context.js";

/**
 * How a check ended. `ok`: it ran and its findings (possibly none) are the assessment. The others mean it could
 * not assess: `unreachable` (no answer, connection refused, name does not resolve), `refused` (the target resolves
 * to a non-public address and private targets are not allowed: no traffic was sent), `timeout`, `error`.
 */
export const CHECK_STATUSES = ["ok", "unreachable", "refused", "error", "timeout"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

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

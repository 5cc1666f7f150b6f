import { httpStatusFor } from "@hcs/protocol";
import type { AppDeps } from "../../app-deps.js";
import type { ServiceError } from "../../errors.js";
import type { HcsContext } from "../../http/state.js";
import { type InvokeResult, invoke } from "../../operations/invoke.js";
import type { Operation } from "../../operations/operation.js";
import { getAccount } from "../../services/accounts.js";
import type { Caller } from "../../services/caller.js";
import { PortalError } from "../portal-errors.js";
import type { PortalPermission } from "../roles.js";
import { assertCan, type SignedIn } from "./portal-request.js";

/**
 * The bridge from the portal to the operation catalogue (docs/portal.md, "Credits"): a change that costs credits
 * over the API is made in the portal by invoking the same operation through the same pipeline (operations/invoke.ts),
 * so its charge, ledger row, rate-limit count and audit event are one settlement, exactly as for an API call.
 *
 * The caller is the signed-in person's account with its plan and tier, without a key: `keyId` null and
 * `portalUserId` set (services/api-keys.ts, Caller). Its audit event has transport `portal`, `key_id` null and
 * `actor.operator` = `user:<id>`, as every portal event names the person; its rate limits count per person.
 * Viewers change nothing: the role check comes before anything is counted or charged.
 */
export async function invokeForPortal(
  ctx: HcsContext,
  deps: AppDeps,
  signedIn: SignedIn,
  operation: Operation,
  input: unknown,
  /** What the person's role must allow (docs/portal.md, roles): records by default. */
  permission: PortalPermission = "change_records",
): Promise<InvokeResult> {
  assertCan(signedIn, permission);
  const { user } = signedIn.session;
  // Plan and tier are read now, not from the session: an upgrade applies to the next change without signing in again.
  const account = await getAccount(deps, user.accountId);
  const caller: Caller = {
    keyId: null,
    portalUserId: user.id,
    accountId: account.id,
    plan: account.plan,
    tier: account.tier,
  };
  return invoke(deps, {
    operation,
    input: () => input,
    credentials: { caller, refused: null },
    transport: "portal",
    requestId: ctx.state.requestId,
    clientIp: ctx.state.clientIp,
  });
}

/** Input the operation refused as invalid: a form shows it next to its fields and keeps the person's answers. */
export const isInputRefusal = (error: ServiceError): boolean => httpStatusFor(error.code) === 400;

/** Where to ask for an upgrade, from the refusal's `details.contact_email` (services/credit-errors.ts). */
function askFor(error: ServiceError, what: string): string {
  const contact = (error.details as { contact_email?: unknown } | undefined)?.contact_email;
  return typeof contact === "string" ? `${what}, write to ${contact}` : `${what}, ask the operator of this service`;
}

/**
 * The page error of a refused call, in the portal's words (never the API's JSON). A rate-limited call also sets
 * Retry-After. What is not the person's to fix (a store that did not answer, an internal error) is thrown as it is,
 * so the portal answers its error page with the request id.
 */
export function portalErrorOf(ctx: HcsContext, result: Extract<InvokeResult, { ok: false }>): PortalError {
  const { error } = result;
  switch (error.code) {
    case "insufficient_credits": {
      const d = error.details as { required?: number; balance?: number } | undefined;
      const cost = typeof d?.required === "number" ? `This costs ${d.required} credits` : "This costs more credits";
      const held = typeof d?.balance === "number" ? ` and your account holds ${d.balance}` : " than your account holds";
      return new PortalError(
        "insufficient_credits",
        `${cost}${held}. Nothing was charged. ${askFor(error, "To add credits or change plan")}, then try again.`,
      );
    }
    case "plan_required":
      return new PortalError(
        "plan_required",
        `This needs a Professional or Enterprise plan. Nothing was charged. ${askFor(error, "To change plan")}.`,
      );
    case "rate_limited":
      if (result.retryAfter !== null) ctx.set("Retry-After", String(result.retryAfter));
      return new PortalError(
        "rate_limited",
        `Too many changes in a short time. Nothing was charged. Try again${result.retryAfter !== null ? ` in ${result.retryAfter} seconds` : " shortly"}.`,
      );
    case "forbidden":
      return new PortalError("forbidden", "Your account may not do this.");
    case "not_found":
    case "npi_not_found":
      return new PortalError("not_found", "There is no such record in your account.");
    default:
      if (isInputRefusal(error)) return new PortalError("invalid_input", `The form is not valid: ${error.message}.`);
      throw error;
  }
}

/** The operation's output when the call succeeded; otherwise the refusal as a page error (see portalErrorOf). */
export function outputOrThrow(ctx: HcsContext, result: InvokeResult): unknown {
  if (result.ok) return result.output;
  throw portalErrorOf(ctx, result);
}

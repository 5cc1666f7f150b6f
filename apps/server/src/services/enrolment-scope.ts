import { NpiSchema } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import { getAccount } from "./accounts.js";
import type { ServiceDeps } from "./deps.js";
import { getOwnedPractice, getPractice } from "./practices.js";

/**
 * Who manages scanner enrolments: the operator (CLI) manages every practice; an API key's account only the
 * practices it owns (docs/security.md#who-may-read-what: deploy tokens and scan results are the practice's owner's).
 */
export type EnrolmentActor = { readonly by: "operator" } | { readonly by: "account"; readonly accountId: string };

export const OPERATOR: EnrolmentActor = { by: "operator" };

/** Which practices a listing covers: one NPI, one owning account, both, or (operator only) every practice. */
export interface EnrolmentFilter {
  readonly npi?: string;
  readonly accountId?: string;
}

/**
 * The filter a listing may run with: an account is held to the practices it owns (403 forbidden for another's
 * NPI); each filter the operator names must exist, so a typo says so instead of listing nothing.
 */
export async function checkedFilter(
  deps: ServiceDeps,
  actor: EnrolmentActor,
  filter: EnrolmentFilter,
): Promise<EnrolmentFilter> {
  const npi = filter.npi === undefined ? undefined : NpiSchema.safeParse(filter.npi);
  // Worded as `practices add` words it.
  if (npi && !npi.success) throw new ServiceError("invalid_npi", `npi: ${npi.error.issues[0]?.message}`);
  if (actor.by === "account") {
    if (filter.npi !== undefined) await getOwnedPractice(deps, filter.npi, actor.accountId);
    return { ...(filter.npi !== undefined ? { npi: filter.npi } : {}), accountId: actor.accountId };
  }
  if (filter.npi !== undefined) await getPractice(deps, filter.npi);
  if (filter.accountId !== undefined) await getAccount(deps, filter.accountId);
  return filter;
}

/** Resolves when the actor may revoke an agent or a token of practice `npi`; otherwise 403 forbidden. */
export async function assertManages(deps: ServiceDeps, actor: EnrolmentActor, npi: string): Promise<void> {
  if (actor.by === "account") await getOwnedPractice(deps, npi, actor.accountId);
}

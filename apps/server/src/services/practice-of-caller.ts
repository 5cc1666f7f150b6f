import { ServiceError } from "../errors.js";
import type { ServiceDeps } from "./deps.js";
import { getOwnedPractice, listPractices, type PracticeView } from "./practices.js";

/**
 * The practice a Group A call is about: `npi` when given (it must belong to the account), else the account's only
 * practice (invalid_query listing the NPIs when it has several; not_found when it has none).
 */
export async function practiceOfCaller(deps: ServiceDeps, accountId: string, npi?: string): Promise<PracticeView> {
  if (npi) return getOwnedPractice(deps, npi, accountId);
  const owned = await listPractices(deps, accountId);
  if (owned.length === 0) throw new ServiceError("not_found", "no practice is registered to this account");
  if (owned.length > 1) {
    throw new ServiceError("invalid_query", "this account has several practices; pass ?npi=", {
      npis: owned.map((p) => p.npi),
    });
  }
  return owned[0]!;
}

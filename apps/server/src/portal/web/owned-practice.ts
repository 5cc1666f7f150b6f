import { NpiSchema } from "@hcs/protocol";
import type { AppDeps } from "../../app-deps.js";
import { isServiceError } from "../../errors.js";
import { getOwnedPractice } from "../../services/practices.js";
import { PortalError } from "../portal-errors.js";
import type { SignedIn } from "./portal-request.js";

/** The practice in the path, owned by the signed-in account (404 for anyone else's: ownership is not disclosed). */
export async function ownedPractice(deps: AppDeps, signedIn: SignedIn, npiParam: string | undefined) {
  const npi = NpiSchema.safeParse(npiParam);
  if (!npi.success) throw new PortalError("not_found", "There is no such practice.");
  try {
    return await getOwnedPractice(deps, npi.data, signedIn.session.user.accountId);
  } catch (err) {
    if (isServiceError(err)) throw new PortalError("not_found", "There is no such practice in your account.");
    throw err;
  }
}

import {
  listBusinessAssociates,
  removeBusinessAssociate,
  upsertBusinessAssociate,
} from "../../administrative/business-associates.js";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { bindOperation } from "../../operations/operation.js";
import { baaDeclaration } from "./baa.declaration.js";

export const baaOperation = bindOperation(baaDeclaration, async ({ npi, action, vendor, vendor_id }, call) => {
  call.setResource(`practice:${npi}`);
  if (action === "upsert") await upsertBusinessAssociate(call.deps, npi, vendor!);
  if (action === "remove") await removeBusinessAssociate(call.deps, npi, vendor_id!);
  if (action !== "list") await refreshAdministrativeAssessment(call.deps, npi);
  return listBusinessAssociates(call.deps, npi);
});

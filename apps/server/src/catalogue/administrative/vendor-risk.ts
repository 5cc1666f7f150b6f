import { vendorRiskFor } from "../../administrative/vendor-risk.js";
import { bindOperation } from "../../operations/operation.js";
import { vendorRiskDeclaration } from "./vendor-risk.declaration.js";

export const vendorRiskOperation = bindOperation(vendorRiskDeclaration, async ({ npi, vendor_domain }, call) => {
  call.setResource(`practice:${npi}`);
  return vendorRiskFor(call.deps, npi, (credits) => call.reserve(credits), vendor_domain);
});

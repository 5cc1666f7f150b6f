import { COMPLIANCE_REQUIREMENTS, type HipaaControlId } from "@hcs/protocol";
import { ServiceError } from "../../errors.js";
import { bindOperation } from "../../operations/operation.js";
import { controlCatalogue } from "../../services/control-catalogue.js";
import { controlsDeclaration } from "./controls.declaration.js";

let checksByControl: Promise<ReadonlyMap<HipaaControlId, readonly string[]>> | null = null;

/** Which external checks cite each control; the external scan's catalogue is loaded on first use, once. */
function externalChecks() {
  checksByControl ??= import("../../external-scan/finding-catalogue.js").then((m) => m.externallyVerifiedControls());
  return checksByControl;
}

export const controlsOperation = bindOperation(controlsDeclaration, async (input, call) => {
  if (input.requirement && !COMPLIANCE_REQUIREMENTS.some((r) => r.id === input.requirement))
    throw new ServiceError("invalid_query", `no requirement ${input.requirement}`, {
      issues: [{ path: "requirement", message: "one of the 13 requirement ids" }],
    });
  call.setResource("controls");
  return { controls: controlCatalogue(input, await externalChecks()) };
});

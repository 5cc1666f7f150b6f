import { COMPLIANCE_REQUIREMENTS, ControlsQuerySchema, ControlsResultSchema, type HipaaControlId } from "@hcs/protocol";
import { ServiceError } from "../../errors.js";
import { defineOperation } from "../../operations/operation.js";
import { controlCatalogue } from "../../services/control-catalogue.js";

let checksByControl: Promise<ReadonlyMap<HipaaControlId, readonly string[]>> | null = null;

/** Which external checks cite each control; the external scan's catalogue is loaded on first use, once. */
function externalChecks() {
  checksByControl ??= import("../../external-scan/finding-catalogue.js").then((m) => m.externallyVerifiedControls());
  return checksByControl;
}

export const controlsOperation = defineOperation({
  id: "getControls",
  method: "hipaa.get_controls",
  group: "b",
  access: { rule: "any_key" },
  example: { requirement: "encryption_at_rest" },
  summary: "The HIPAA Security Rule controls and how HCS verifies each",
  description:
    "Standards and implementation specifications of 45 CFR 164.308, 164.310, 164.312 and 164.316: required or " +
    "addressable, their title, the 13 requirements they belong to, and how HCS verifies them (external checks, " +
    "scanner phases, administrative records). Filter by ids, standard, requirement or section. Free.",
  input: ControlsQuerySchema,
  output: ControlsResultSchema,
  errors: [],
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: { method: "get", path: "/v1/a2a/controls" },
  async run(input, call) {
    if (input.requirement && !COMPLIANCE_REQUIREMENTS.some((r) => r.id === input.requirement))
      throw new ServiceError("invalid_query", `no requirement ${input.requirement}`, {
        issues: [{ path: "requirement", message: "one of the 13 requirement ids" }],
      });
    call.setResource("controls");
    return { controls: controlCatalogue(input, await externalChecks()) };
  },
});

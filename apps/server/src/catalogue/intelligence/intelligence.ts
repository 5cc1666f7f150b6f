import { bindOperation } from "../../operations/operation.js";
import { breachCheck } from "../../services/intel/breach-lookup.js";
import { breachProbabilityFor } from "../../services/intel/breach-probability.js";
import { threatReport } from "../../services/intel/threats.js";
import {
  breachByNameDeclaration,
  breachDeclaration,
  breachProbabilityDeclaration,
  threatsDeclaration,
} from "./intelligence.declaration.js";

export const breachOperation = bindOperation(breachDeclaration, async (input, call) => {
  call.setResource(input.npi ? `practice:${input.npi}` : "breach_lookup");
  return breachCheck(call.deps, input, call.caller?.accountId ?? null);
});

export const breachByNameOperation = bindOperation(breachByNameDeclaration, async (input, call) => {
  call.setResource("breach_lookup");
  return breachCheck(call.deps, input, call.caller?.accountId ?? null);
});

export const threatsOperation = bindOperation(threatsDeclaration, async ({ npi }, call) => {
  call.setResource(`practice:${npi}`);
  return threatReport(call.deps, npi);
});

export const breachProbabilityOperation = bindOperation(
  breachProbabilityDeclaration,
  async ({ npi, size_band }, call) => {
    call.setResource(`practice:${npi}`);
    return breachProbabilityFor(call.deps, npi, size_band);
  },
);

import { listBusinessAssociates } from "../../administrative/business-associates.js";
import { validateWorkflow } from "../../administrative/workflow-rules.js";
import { bindOperation } from "../../operations/operation.js";
import { validateWorkflowDeclaration } from "./validate-workflow.declaration.js";

export const validateWorkflowOperation = bindOperation(validateWorkflowDeclaration, async ({ workflow, npi }, call) => {
  let recorded = new Map<string, boolean>();
  if (npi) {
    call.setResource(`practice:${npi}`);
    const list = await listBusinessAssociates(call.deps, npi);
    recorded = new Map(
      list.business_associates.map((v) => [
        v.name.toLowerCase(),
        v.coverage === "current" || v.coverage === "expiring",
      ]),
    );
  }
  const issues = validateWorkflow(workflow.steps, (vendor) => recorded.get(vendor.toLowerCase()));
  return { valid: issues.length === 0, steps: workflow.steps.length, issues };
});

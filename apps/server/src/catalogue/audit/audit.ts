import { evidenceFor } from "../../audit/evidence.js";
import { auditProofFor, latestCheckpoint } from "../../audit/proofs.js";
import { bindOperation } from "../../operations/operation.js";
import { auditProofDeclaration, evidenceDeclaration, latestCheckpointDeclaration } from "./audit.declaration.js";

export const latestCheckpointOperation = bindOperation(latestCheckpointDeclaration, async (_input, call) => {
  call.setResource("audit_log");
  return latestCheckpoint(call.deps);
});

export const auditProofOperation = bindOperation(auditProofDeclaration, async ({ id }, call) => {
  call.setResource(`audit_event:${id}`);
  return auditProofFor(call.deps, Number(id), call.caller!.accountId);
});

export const evidenceOperation = bindOperation(evidenceDeclaration, async (input, call) => {
  call.setResource(`practice:${input.npi}`);
  return evidenceFor(call.deps, input, call.caller!.accountId);
});

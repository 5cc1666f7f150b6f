import { bindOperation, type OperationCall } from "../../operations/operation.js";
import { groupAgents } from "../../services/agent-groups.js";
import { listDeployTokens, revokeDeployToken } from "../../services/deploy-tokens.js";
import { listAgents, revokeAgent } from "../../services/enrolled-agents.js";
import type { EnrolmentActor } from "../../services/enrolment-scope.js";
import {
  listAgentsDeclaration,
  listDeployTokensDeclaration,
  revokeAgentDeclaration,
  revokeDeployTokenDeclaration,
} from "./enrolments.declaration.js";

// The practice's owner manages its scanners: listing and revoking are free (not metered) and owner-only.
const ownerOf = (call: OperationCall): EnrolmentActor => ({ by: "account", accountId: call.caller!.accountId });

export const listAgentsOperation = bindOperation(listAgentsDeclaration, async (input, call) => {
  call.setResource(`practice:${input.npi}`);
  return { npi: input.npi, ...groupAgents(await listAgents(call.deps, ownerOf(call), { npi: input.npi })) };
});

export const revokeAgentOperation = bindOperation(revokeAgentDeclaration, async (input, call) => {
  call.setResource(`agent:${input.agent_id}`);
  return revokeAgent(call.deps, ownerOf(call), input.agent_id);
});

export const listDeployTokensOperation = bindOperation(listDeployTokensDeclaration, async (input, call) => {
  call.setResource(`practice:${input.npi}`);
  return { npi: input.npi, deploy_tokens: await listDeployTokens(call.deps, ownerOf(call), { npi: input.npi }) };
});

export const revokeDeployTokenOperation = bindOperation(revokeDeployTokenDeclaration, async (input, call) => {
  call.setResource(`deploy_token:${input.token_id}`);
  return revokeDeployToken(call.deps, ownerOf(call), input.token_id);
});

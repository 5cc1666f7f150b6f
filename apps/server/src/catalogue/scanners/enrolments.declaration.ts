import { AgentListSchema, AgentViewSchema, DeployTokenListSchema, DeployTokenViewSchema } from "@hcs/protocol";
import { z } from "zod";
import { declareOperation } from "../../operations/operation.js";
import { NpiInputSchema } from "../grades/grade.declaration.js";

const AgentInput = z.strictObject({ agent_id: z.string().regex(/^agt_[0-9A-Za-z]{16}$/, "an agent id") });
const TokenInput = z.strictObject({ token_id: z.string().regex(/^dpt_[0-9A-Za-z]{16}$/, "a deploy token id") });

export const listAgentsDeclaration = declareOperation({
  id: "listAgents",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893" },
  summary: "List the scanner agents of a practice you own",
  description:
    "The installed scanners of the practice (`agents`), oldest first, revoked ones included (revoked_at), with host " +
    "name, platform, scanner version, when each last uploaded and its state; and the one-shot runs " +
    "(`hcs-scanner one-shot`, registered ephemeral) grouped by machine (`one_shot`): how many ran, how many may still " +
    "upload (listed), expired or revoked. A one-shot agent expires an hour after its last upload (a day after it " +
    "registered when it never uploaded). No key material. Not metered.",
  input: NpiInputSchema,
  output: AgentListSchema,
  errors: ["invalid_npi", "npi_not_found", "forbidden"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/network/agents/:npi" },
});

export const revokeAgentDeclaration = declareOperation({
  id: "revokeAgent",
  group: "b",
  access: { rule: "owner", of: "agent", field: "agent_id" },
  example: { agent_id: "agt_0123456789abcdef" },
  summary: "Revoke a scanner agent of a practice you own",
  description:
    "No body. From then on the agent's uploads are refused with 403 agent_revoked; to enrol the host again, issue a " +
    "new deploy token. Idempotent: revoking again answers the same agent with its first revoked_at. Not metered.",
  input: AgentInput,
  output: AgentViewSchema,
  errors: ["not_found", "forbidden"],
  inputErrors: { agent_id: { code: "not_found", message: "no such scanner agent" } },
  readOnly: false,
  openWorld: false,
  rest: { method: "post", path: "/v1/a2a/network/agents/:agent_id/revoke" },
});

export const listDeployTokensDeclaration = declareOperation({
  id: "listDeployTokens",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893" },
  summary: "List the deploy tokens of a practice you own",
  description:
    "Every deploy token issued for the practice, oldest first, with uses, expiry and state (active, revoked, " +
    "expired, used: what registration would answer now). Never the token or its hash. Not metered.",
  input: NpiInputSchema,
  output: DeployTokenListSchema,
  errors: ["invalid_npi", "npi_not_found", "forbidden"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/network/deploy-tokens/:npi" },
});

export const revokeDeployTokenDeclaration = declareOperation({
  id: "revokeDeployToken",
  group: "b",
  access: { rule: "owner", of: "deploy_token", field: "token_id" },
  example: { token_id: "dpt_0123456789abcdef" },
  summary: "Revoke a deploy token of a practice you own",
  description:
    "No body. Registrations with the token are refused from then on with 401 deploy_token_revoked; agents it already " +
    "enrolled keep working (revoke them separately). Idempotent. Not metered.",
  input: TokenInput,
  output: DeployTokenViewSchema,
  errors: ["not_found", "forbidden"],
  inputErrors: { token_id: { code: "not_found", message: "no such deploy token" } },
  readOnly: false,
  openWorld: false,
  rest: { method: "post", path: "/v1/a2a/network/deploy-tokens/:token_id/revoke" },
});

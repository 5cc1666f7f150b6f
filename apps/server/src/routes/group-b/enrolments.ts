import { AgentListSchema, AgentViewSchema, DeployTokenListSchema, DeployTokenViewSchema } from "@hcs/protocol";
import { z } from "zod";
import type { HcsContext } from "../../http/state.js";
import { listDeployTokens, revokeDeployToken } from "../../services/deploy-tokens.js";
import { listAgents, revokeAgent } from "../../services/enrolled-agents.js";
import type { EnrolmentActor } from "../../services/enrolment-scope.js";
import { NpiParamsSchema, npiParam, pathParam } from "../params.js";
import { defineRoute } from "../route.js";

// The practice's owner manages its scanners: listing and revoking are free (not metered) and owner-only.
const OWNER_ERRORS = [
  "forbidden",
  "missing_credentials",
  "invalid_credentials",
  "key_revoked",
  "rate_limited",
] as const;

const ownerOf = (ctx: HcsContext): EnrolmentActor => ({ by: "account", accountId: ctx.state.caller!.accountId });

const AgentParams = z.object({ agent_id: z.string().regex(/^agt_[0-9A-Za-z]{16}$/, "an agent id") });
const TokenParams = z.object({ token_id: z.string().regex(/^dpt_[0-9A-Za-z]{16}$/, "a deploy token id") });

export const listAgentsRoute = defineRoute({
  method: "get",
  path: "/v1/a2a/network/agents/:npi",
  group: "b",
  operationId: "listAgents",
  summary: "List the scanner agents of a practice you own",
  description:
    "Every agent registered for the practice, oldest first, revoked ones included (revoked_at), with host name, " +
    "platform, scanner version and when it last uploaded. No key material. Not metered.",
  params: NpiParamsSchema,
  responses: { 200: { description: "The practice's agents", schema: AgentListSchema } },
  errors: ["invalid_npi", "npi_not_found", ...OWNER_ERRORS],
  async handler(ctx, deps) {
    const npi = npiParam(ctx);
    ctx.state.auditResource = `practice:${npi}`;
    ctx.body = { npi, agents: await listAgents(deps, ownerOf(ctx), { npi }) };
  },
});

export const revokeAgentRoute = defineRoute({
  method: "post",
  path: "/v1/a2a/network/agents/:agent_id/revoke",
  group: "b",
  operationId: "revokeAgent",
  summary: "Revoke a scanner agent of a practice you own",
  description:
    "No body. From then on the agent's uploads are refused with 403 agent_revoked; to enrol the host again, issue a " +
    "new deploy token. Idempotent: revoking again answers the same agent with its first revoked_at. Not metered.",
  params: AgentParams,
  responses: { 200: { description: "The revoked agent", schema: AgentViewSchema } },
  errors: ["not_found", ...OWNER_ERRORS],
  async handler(ctx, deps) {
    const agentId = pathParam(ctx, "agent_id", AgentParams.shape.agent_id, "not_found");
    ctx.state.auditResource = `agent:${agentId}`;
    ctx.body = await revokeAgent(deps, ownerOf(ctx), agentId);
  },
});

export const listDeployTokensRoute = defineRoute({
  method: "get",
  path: "/v1/a2a/network/deploy-tokens/:npi",
  group: "b",
  operationId: "listDeployTokens",
  summary: "List the deploy tokens of a practice you own",
  description:
    "Every deploy token issued for the practice, oldest first, with uses, expiry and state (active, revoked, " +
    "expired, used: what registration would answer now). Never the token or its hash. Not metered.",
  params: NpiParamsSchema,
  responses: { 200: { description: "The practice's deploy tokens", schema: DeployTokenListSchema } },
  errors: ["invalid_npi", "npi_not_found", ...OWNER_ERRORS],
  async handler(ctx, deps) {
    const npi = npiParam(ctx);
    ctx.state.auditResource = `practice:${npi}`;
    ctx.body = { npi, deploy_tokens: await listDeployTokens(deps, ownerOf(ctx), { npi }) };
  },
});

export const revokeDeployTokenRoute = defineRoute({
  method: "post",
  path: "/v1/a2a/network/deploy-tokens/:token_id/revoke",
  group: "b",
  operationId: "revokeDeployToken",
  summary: "Revoke a deploy token of a practice you own",
  description:
    "No body. Registrations with the token are refused from then on with 401 deploy_token_revoked; agents it already " +
    "enrolled keep working (revoke them separately). Idempotent. Not metered.",
  params: TokenParams,
  responses: { 200: { description: "The revoked token (metadata only)", schema: DeployTokenViewSchema } },
  errors: ["not_found", ...OWNER_ERRORS],
  async handler(ctx, deps) {
    const tokenId = pathParam(ctx, "token_id", TokenParams.shape.token_id, "not_found");
    ctx.state.auditResource = `deploy_token:${tokenId}`;
    ctx.body = await revokeDeployToken(deps, ownerOf(ctx), tokenId);
  },
});

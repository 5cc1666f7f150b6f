import { z } from "zod";
import { NpiSchema } from "./npi.js";
import { PlatformSchema } from "./scanner.js";

/**
 * What registration would answer for a deploy token right now, in the order it checks: `revoked` (the token or the
 * API key that created it was revoked), `expired`, `used` (no uses left), otherwise `active`.
 */
export const DEPLOY_TOKEN_STATES = ["active", "revoked", "expired", "used"] as const;
export const DeployTokenStateSchema = z.enum(DEPLOY_TOKEN_STATES);
export type DeployTokenState = z.infer<typeof DeployTokenStateSchema>;

/** A registered scanner as its practice's owner and the operator see it (no key material). */
export const AgentViewSchema = z
  .object({
    agent_id: z.string(),
    npi: NpiSchema,
    account_id: z.string(),
    deploy_token_id: z.string(),
    hostname: z.string(),
    platform: PlatformSchema,
    os_release: z.string().nullable(),
    scanner_version: z.string(),
    ephemeral: z.boolean(),
    registered_at: z.iso.datetime(),
    last_seen_at: z.iso.datetime().nullable(),
    revoked_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "AgentView", description: "A registered scanner agent; a revoked agent's uploads are refused" });
export type AgentView = z.infer<typeof AgentViewSchema>;

/** Response of GET /v1/a2a/network/agents/{npi}. */
export const AgentListSchema = z.object({ npi: NpiSchema, agents: z.array(AgentViewSchema) }).meta({ id: "AgentList" });
export type AgentList = z.infer<typeof AgentListSchema>;

/** A deploy token as its practice's owner and the operator see it: never the token or its hash. */
export const DeployTokenViewSchema = z
  .object({
    token_id: z.string(),
    npi: NpiSchema,
    account_id: z.string(),
    created_by_key_id: z.string().nullable(),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    uses: z.int().min(0),
    max_uses: z.int().min(1),
    revoked_at: z.iso.datetime().nullable(),
    state: DeployTokenStateSchema,
  })
  .meta({ id: "DeployTokenView", description: "A deploy token's metadata and state (the token itself is shown once)" });
export type DeployTokenView = z.infer<typeof DeployTokenViewSchema>;

/** Response of GET /v1/a2a/network/deploy-tokens/{npi}. */
export const DeployTokenListSchema = z
  .object({ npi: NpiSchema, deploy_tokens: z.array(DeployTokenViewSchema) })
  .meta({ id: "DeployTokenList" });
export type DeployTokenList = z.infer<typeof DeployTokenListSchema>;

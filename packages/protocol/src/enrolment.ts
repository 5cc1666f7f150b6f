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

/**
 * How long a one-shot agent (`hcs-scanner one-shot`: registered with `ephemeral: true`, its key forgotten when the run
 * ends) may upload: an hour after its last upload — a run's retries of the same upload come within seconds — or, before
 * its first upload, a day after it registered (a one-shot scan of a large network takes hours). Then it is `expired`:
 * listed apart from the installed scanners and no longer as active, and its uploads are refused `403 agent_expired`.
 */
export const ONE_SHOT_AGENT_LIFETIME = { hours_after_last_upload: 1, hours_before_first_upload: 24 } as const;

const HOUR_MS = 3_600_000;

/** When a one-shot agent expires (ISO instant), from when it registered and when it last uploaded. */
export function oneShotAgentExpiresAt(registeredAt: string, lastUploadAt: string | null): string {
  const from = lastUploadAt ?? registeredAt;
  const hours = lastUploadAt
    ? ONE_SHOT_AGENT_LIFETIME.hours_after_last_upload
    : ONE_SHOT_AGENT_LIFETIME.hours_before_first_upload;
  return new Date(Date.parse(from) + hours * HOUR_MS).toISOString();
}

/** Whether an agent may upload now: `revoked` wins, then `expired` (one-shot agents only), else `active`. */
export const AGENT_STATES = ["active", "revoked", "expired"] as const;
export const AgentStateSchema = z.enum(AGENT_STATES);
export type AgentState = z.infer<typeof AgentStateSchema>;

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
    /** A one-shot agent (`hcs-scanner one-shot`): a throw-away identity that expires (ONE_SHOT_AGENT_LIFETIME). */
    ephemeral: z.boolean(),
    registered_at: z.iso.datetime(),
    /** When it last uploaded a scan (null: never). */
    last_seen_at: z.iso.datetime().nullable(),
    revoked_at: z.iso.datetime().nullable(),
    /** When a one-shot agent stops being allowed to upload; null for an installed scanner (it never expires). */
    expires_at: z.iso.datetime().nullable(),
    state: AgentStateSchema,
  })
  .meta({
    id: "AgentView",
    description: "A registered scanner agent; a revoked or expired agent's uploads are refused",
  });
export type AgentView = z.infer<typeof AgentViewSchema>;

/** The one-shot runs of one machine (host name and platform), counted; the runs still active listed. */
export const OneShotGroupSchema = z
  .object({
    hostname: z.string(),
    platform: PlatformSchema,
    runs: z.int().min(1),
    /** Runs that may still upload (not expired, not revoked): each is in `active_agents`. */
    active: z.int().min(0),
    expired: z.int().min(0),
    revoked: z.int().min(0),
    first_registered_at: z.iso.datetime(),
    last_registered_at: z.iso.datetime(),
    /** The group's latest upload (null: none of its runs uploaded). */
    last_upload_at: z.iso.datetime().nullable(),
    /** The scanner version of the latest run. */
    scanner_version: z.string(),
    active_agents: z.array(AgentViewSchema),
  })
  .meta({ id: "OneShotGroup", description: "The one-shot scanner runs of one machine" });
export type OneShotGroup = z.infer<typeof OneShotGroupSchema>;

/**
 * Response of GET /v1/a2a/network/agents/{npi}: the installed scanners one by one (oldest first, revoked ones
 * included), and the one-shot runs grouped by machine (latest first).
 */
export const AgentListSchema = z
  .object({ npi: NpiSchema, agents: z.array(AgentViewSchema), one_shot: z.array(OneShotGroupSchema) })
  .meta({ id: "AgentList" });
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

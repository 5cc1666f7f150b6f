import { AgentRegistrationRequestSchema } from "@hcs/protocol";
import { registerAgent } from "../services/agents.js";
import { issueDeployToken } from "../services/deploy-tokens.js";
import type { ServiceDeps } from "../services/deps.js";
import { newAgentKeys, registrationBody } from "./agent-client.js";

// Enrolment through the services, without a server: what CLI tests need to find in the store before they run.

const SERVER_URL = "https://127.0.0.1:8443";

/** A deploy token for `npi`, issued with `keyId` (one use unless said). */
export const issueTestDeployToken = (
  deps: ServiceDeps,
  o: { accountId: string; keyId: string; npi: string; maxUses?: number },
) =>
  issueDeployToken(deps, {
    accountId: o.accountId,
    keyId: o.keyId,
    npi: o.npi,
    serverUrl: SERVER_URL,
    caSha256: "a".repeat(64),
    maxUses: o.maxUses ?? 1,
  });

/** Registers a scanner with a deploy token, as `hcs-scanner register` would. */
export const registerTestAgent = (
  deps: ServiceDeps,
  deployToken: string,
  keys = newAgentKeys(),
  hostname = "frontdesk-01",
) =>
  registerAgent(deps, AgentRegistrationRequestSchema.parse(registrationBody(deployToken, keys, hostname)), SERVER_URL);

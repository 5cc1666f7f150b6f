import { CREDIT_PRICES, FREE_TIER_CREDITS, PLAN_TABLE, PLANS, planTermsOf, RATE_LIMITS } from "@hcs/protocol";
import { describedWithPrice, fixedCredits, priceText } from "../operations/describe.js";
import type { OperationDeclaration } from "../operations/operation.js";
import { A2A_SUPPORTED_VERSIONS } from "./version.js";

/** The operations an agent can call as A2A skills: those with an agent method. */
export function agentSkills<D extends OperationDeclaration>(operations: readonly D[]): D[] {
  return operations.filter((op) => op.method);
}

/**
 * The A2A v1.0 agent card (protobuf JSON form, as @a2a-js/sdk reads it): the JSON-RPC interface at /api/a2a, how
 * to authenticate, one skill per served agent method of the catalogue (skill id = method), and prices, the plan
 * table, rate limits and the operator's contact address (HCS_CONTACT_EMAIL) in an extension's params. Fields at their
 * protobuf default (empty lists and strings, false) are left out, as protobuf JSON does. Push notifications are not
 * offered: A2A's push-config methods are not served (scan results reach a callback_url through the service's own
 * signed webhooks instead). A second extension publishes the audit log's verifier key (C2SP signed-note) and where its
 * checkpoints and proofs are, when this process signs them.
 */
export function buildAgentCard(
  operations: readonly OperationDeclaration[],
  info: { publicUrl: string; version: string; auditLogVerifierKey?: string; contactEmail?: string | null },
) {
  const served = agentSkills(operations);
  const skills = served.map((op) => ({
    id: op.method!,
    name: op.summary,
    description: `${describedWithPrice(op)} Send a data part {"skill": "${op.method}", "params": {…}}.`,
    tags: ["hipaa", "compliance", ...(op.price ? ["metered"] : []), ...(op.readOnly ? ["read-only"] : [])],
    inputModes: ["application/json"],
    outputModes: ["application/json"],
    ...(op.group === "b" || op.group === "a" ? { securityRequirements: [{ schemes: { ApiKey: {} } }] } : {}),
  }));
  const prices = Object.fromEntries(served.map((op) => [op.method!, fixedCredits(op) ?? priceText(op)]));
  return {
    name: "HCS — Healthcare Compliance Service",
    description:
      "HIPAA compliance tooling for US healthcare practices: unified 0–100 compliance score and A–F grade per NPI " +
      "from an external scan and an internal network scanner, scan dispatch with webhooks, findings that cite HIPAA controls.",
    supportedInterfaces: [
      { url: `${info.publicUrl}/api/a2a`, protocolBinding: "JSONRPC", protocolVersion: A2A_SUPPORTED_VERSIONS[0] },
    ],
    provider: { url: info.publicUrl, organization: "HCS" },
    version: info.version,
    documentationUrl: `${info.publicUrl}/openapi-a2a.yaml`,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: [
        {
          uri: "https://hcs.invalid/a2a/extensions/pricing-and-limits/v1",
          description:
            "Credit prices per skill and per check, the plans, request rate limits and where to ask for credits or a plan",
          params: {
            credits_per_call: prices,
            free_tier_credits: FREE_TIER_CREDITS,
            // The plan table (docs/api.md#plans-and-prices): what `hipaa.account` answers the caller's place in.
            per_check_prices: { ...CREDIT_PRICES },
            plans: PLANS.map(planTermsOf),
            statement_period_months: PLAN_TABLE.statement_period_months,
            account_skill: "hipaa.account",
            ...(info.contactEmail ? { contact_email: info.contactEmail } : {}),
            rate_limits_per_minute: {
              standard: RATE_LIMITS.group_b.standard.per_minute,
              bulk: RATE_LIMITS.group_b.bulk.per_minute,
            },
            rate_limit_headers: ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"],
            mcp_endpoint: `${info.publicUrl}/mcp`,
          },
        },
        ...(info.auditLogVerifierKey
          ? [
              {
                uri: "https://hcs.invalid/a2a/extensions/audit-log/v1",
                description:
                  "The verifiable audit log: its C2SP verifier key, its latest signed checkpoint and each event's inclusion proof",
                params: {
                  verifier_key: info.auditLogVerifierKey,
                  verifier_key_url: `${info.publicUrl}/.well-known/hcs-audit-log-key`,
                  latest_checkpoint_url: `${info.publicUrl}/v1/a2a/audit/checkpoints/latest`,
                  event_proof_url: `${info.publicUrl}/v1/a2a/audit/events/{id}/proof`,
                },
              },
            ]
          : []),
      ],
    },
    securitySchemes: {
      ApiKey: { apiKeySecurityScheme: { description: "Group B API key", location: "header", name: "X-API-Key" } },
    },
    securityRequirements: [{ schemes: { ApiKey: {} } }],
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    skills,
  };
}

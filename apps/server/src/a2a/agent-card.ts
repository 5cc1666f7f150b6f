import { CREDIT_PRICES, FREE_TIER_CREDITS, RATE_LIMITS } from "@hcs/protocol";
import type { RouteDef } from "../routes/route.js";

/**
 * The A2A v1.0 agent card (protobuf JSON form, as @a2a-js/sdk reads it): where the JSON-RPC interface is, how to
 * authenticate, one skill per Group B operation, and pricing and rate limits in an extension's params.
 * Fields at their protobuf default (empty lists and strings, false) are left out, as protobuf JSON does.
 */
export function buildAgentCard(routes: readonly RouteDef[], info: { publicUrl: string; version: string }) {
  const skills = routes
    .filter((r) => (r.group === "b" || r.group === "b-open") && !r.internal)
    .map((r) => ({
      id: r.operationId,
      name: r.summary,
      description: `${r.description ?? r.summary} (REST: ${r.method.toUpperCase()} ${r.path})`,
      tags: ["hipaa", "compliance", ...(r.price ? ["metered"] : [])],
      inputModes: ["application/json"],
      outputModes: ["application/json"],
      ...(r.group === "b" ? { securityRequirements: [{ schemes: { ApiKey: {} } }] } : {}),
    }));
  return {
    name: "HCS — Healthcare Compliance Service",
    description:
      "HIPAA compliance tooling for US healthcare practices: unified 0–100 compliance score and A–F grade per NPI " +
      "from an external scan and an internal network scanner, scan dispatch with webhooks, findings that cite HIPAA controls.",
    supportedInterfaces: [{ url: `${info.publicUrl}/api/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    provider: { url: info.publicUrl, organization: "HCS" },
    version: info.version,
    documentationUrl: `${info.publicUrl}/openapi-a2a.yaml`,
    capabilities: {
      streaming: false,
      pushNotifications: true,
      extendedAgentCard: false,
      extensions: [
        {
          uri: "https://hcs.invalid/a2a/extensions/pricing-and-limits/v1",
          description: "Credit prices per operation and request rate limits",
          params: {
            credit_prices: CREDIT_PRICES,
            free_tier_credits: FREE_TIER_CREDITS,
            rate_limits_per_minute: {
              standard: RATE_LIMITS.group_b.standard.per_minute,
              bulk: RATE_LIMITS.group_b.bulk.per_minute,
            },
            rate_limit_headers: ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"],
          },
        },
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

import {
  AgentRegistrationRequestSchema,
  AgentRegistrationResponseSchema,
  DeployTokenResponseSchema,
  describeExceededLimit,
  SCAN_UPLOAD_LIMITS,
  ScanResultDocumentSchema,
  ScanUploadAcceptanceSchema,
  type ScanUploadLimitExceeded,
  UPLOAD_HEADERS,
} from "@hcs/protocol";
import { z } from "zod";
import { isServiceError, ServiceError } from "../../errors.js";
import { readJson, readRawBody } from "../../http/body.js";
import type { HcsContext } from "../../http/state.js";
import { acceptScanUpload, registerAgent } from "../../services/agents.js";
import { issueDeployToken } from "../../services/deploy-tokens.js";
import { NpiParamsSchema, npiParam } from "../params.js";
import { defineRoute } from "../route.js";

const DeployOptionsSchema = z
  .strictObject({
    expires_in_hours: z
      .int()
      .min(1)
      .max(24 * 30)
      .optional(),
    max_uses: z.int().min(1).max(1000).optional(),
  })
  .meta({ id: "DeployTokenOptions" });

export const deployTokenRoute = defineRoute({
  method: "post",
  path: "/v1/a2a/network/deploy/:npi",
  group: "b",
  operationId: "createDeployToken",
  summary: "Get a deploy token for the internal network scanner of a practice you own",
  description:
    "No body needed: the token is valid 24 hours for one registration. An optional JSON body may set expires_in_hours " +
    "(1–720) and max_uses (1–1000). The token carries the server URL and the CA's SHA-256 pin; `hcs-scanner register " +
    "--key <token>` needs nothing else. Shown once, stored hashed.",
  params: NpiParamsSchema,
  body: DeployOptionsSchema,
  responses: { 201: { description: "The deploy token and install instructions", schema: DeployTokenResponseSchema } },
  errors: [
    "invalid_npi",
    "npi_not_found",
    "forbidden",
    "invalid_json",
    "invalid_body",
    "missing_credentials",
    "invalid_credentials",
    "key_revoked",
    "rate_limited",
  ],
  async handler(ctx, deps) {
    const npi = npiParam(ctx);
    ctx.state.auditResource = `practice:${npi}`;
    const hasBody = Number(ctx.get("Content-Length") || 0) > 0 || ctx.get("Transfer-Encoding") !== "";
    const options = hasBody ? await readJson(ctx, DeployOptionsSchema) : {};
    const caller = ctx.state.caller!;
    ctx.status = 201;
    ctx.set("Cache-Control", "no-store");
    ctx.body = await issueDeployToken(deps, {
      accountId: caller.accountId,
      keyId: caller.keyId,
      npi,
      serverUrl: deps.config.publicUrl,
      caSha256: deps.tls.caSha256,
      ...(options.expires_in_hours ? { expiresInHours: options.expires_in_hours } : {}),
      ...(options.max_uses ? { maxUses: options.max_uses } : {}),
    });
  },
});

export const registerAgentRoute = defineRoute({
  method: "post",
  path: "/v1/a2a/network/register",
  group: "b-open",
  operationId: "registerAgent",
  summary: "Register a scanner with a deploy token and its Ed25519 public key",
  description:
    "Authenticated by the deploy token (no API key). `proof` is the Ed25519 signature, with the new key, of " +
    '"hcs-agent-register-v1\\n<public_key>\\n<deploy_token>". 401 when the token is unknown, expired or revoked (also when the API key that created it was revoked); 409 when used up.',
  body: AgentRegistrationRequestSchema,
  responses: { 201: { description: "The agent id", schema: AgentRegistrationResponseSchema } },
  errors: [
    "invalid_json",
    "invalid_body",
    "unsupported_media_type",
    "invalid_credentials",
    "invalid_signature",
    "deploy_token_expired",
    "deploy_token_revoked",
    "deploy_token_used",
    "rate_limited",
  ],
  async handler(ctx, deps) {
    const request = await readJson(ctx, AgentRegistrationRequestSchema);
    const registered = await registerAgent(deps, request, deps.config.publicUrl);
    ctx.state.auditResource = `agent:${registered.agent_id}`;
    ctx.status = 201;
    ctx.body = registered;
  },
});

const AGENT_ID = /^agt_[0-9A-Za-z]{16}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{86}$/;
const SCAN_ID = /^[0-9a-f-]{36}$/i;

export const uploadResultsRoute = defineRoute({
  method: "post",
  path: "/v1/a2a/network/results",
  group: "b-open",
  operationId: "uploadScanResults",
  summary: "Upload an internal scan (signed by the scanner agent)",
  description:
    `Authenticated by the agent's Ed25519 signature (no API key): ${UPLOAD_HEADERS.agent}, ${UPLOAD_HEADERS.signature} ` +
    `(base64url signature of "hcs-scan-upload-v1\\n<agent_id>\\n<Idempotency-Key>\\n<hex SHA-256 of the body>") and ` +
    "Idempotency-Key (the document's scan_id). A repeated upload is answered 200 with duplicate=true and stored once. A revoked agent gets 403 agent_revoked. " +
    `Limits per upload: ${SCAN_UPLOAD_LIMITS.upload_bytes} bytes, ${SCAN_UPLOAD_LIMITS.findings_per_upload} findings, ` +
    `${SCAN_UPLOAD_LIMITS.findings_per_host} findings about one host (a finding's host, else the scanning machine), ` +
    `${SCAN_UPLOAD_LIMITS.hosts_per_upload} distinct hosts. Beyond one: 413 payload_too_large with details ` +
    '{limit: "upload_bytes" | "findings_per_upload" | "findings_per_host" | "hosts_per_upload", max, actual, host?}; ' +
    "hcs-scanner caps its uploads to these limits. The raw document is not stored: a summary, the latest phase facts " +
    "and the body's SHA-256 are.",
  body: ScanResultDocumentSchema,
  responses: {
    201: { description: "Stored; the practice's unified grade", schema: ScanUploadAcceptanceSchema },
    200: { description: "Already stored (replay)", schema: ScanUploadAcceptanceSchema },
  },
  errors: [
    "invalid_json",
    "invalid_body",
    "unsupported_media_type",
    "payload_too_large",
    "invalid_credentials",
    "invalid_signature",
    "agent_revoked",
    "idempotency_conflict",
    "rate_limited",
  ],
  async handler(ctx, deps) {
    const agentId = ctx.get(UPLOAD_HEADERS.agent);
    const signature = ctx.get(UPLOAD_HEADERS.signature);
    const idempotencyKey = ctx.get(UPLOAD_HEADERS.idempotencyKey);
    if (!AGENT_ID.test(agentId) || !SIGNATURE.test(signature)) {
      throw new ServiceError(
        "invalid_signature",
        `send ${UPLOAD_HEADERS.agent} and ${UPLOAD_HEADERS.signature} (Ed25519, base64url)`,
      );
    }
    if (!SCAN_ID.test(idempotencyKey))
      throw new ServiceError("invalid_body", "Idempotency-Key must be the scan's scan_id (a UUID)");
    if (!ctx.is("application/json"))
      throw new ServiceError("unsupported_media_type", "send the scan document as application/json");
    const raw = await readUploadBody(ctx);
    ctx.state.auditResource = `scan:${idempotencyKey.toLowerCase()}`;
    const { created, acceptance } = await acceptScanUpload(deps, {
      agentId,
      idempotencyKey: idempotencyKey.toLowerCase(),
      signature,
      raw,
    });
    ctx.status = created ? 201 : 200;
    ctx.body = acceptance;
  },
});

/**
 * The upload body, refused with 413 {limit: "upload_bytes", max, actual} past the upload byte limit. The excess is
 * read and dropped rather than the connection reset, so the client gets the 413 (a reset looks like a network error,
 * which a scanner would retry for good); `actual` is the announced Content-Length when there is one.
 */
async function readUploadBody(ctx: HcsContext): Promise<Buffer> {
  const max = SCAN_UPLOAD_LIMITS.upload_bytes;
  try {
    return await readRawBody(ctx, max);
  } catch (err) {
    if (!isServiceError(err) || err.code !== "payload_too_large") throw err;
    const announced = Number(ctx.get("Content-Length") || 0);
    if (announced <= max)
      throw new ServiceError("payload_too_large", `the upload exceeds ${max} bytes`, { limit: "upload_bytes", max });
    const exceeded: ScanUploadLimitExceeded = { limit: "upload_bytes", max, actual: announced };
    throw new ServiceError("payload_too_large", describeExceededLimit(exceeded), { ...exceeded });
  }
}

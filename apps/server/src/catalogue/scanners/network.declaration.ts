import {
  AgentRegistrationRequestSchema,
  AgentRegistrationResponseSchema,
  DeployTokenResponseSchema,
  NpiSchema,
  SCAN_UPLOAD_LIMITS,
  SCANNER_API_PATHS,
  ScanUploadAcceptanceSchema,
  UPLOAD_HEADERS,
} from "@hcs/protocol";
import { z } from "zod";
import { declareOperation } from "../../operations/operation.js";

const AGENT_ID = /^agt_[0-9A-Za-z]{16}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{86}$/;
const SCAN_ID = /^[0-9A-Fa-f-]{36}$/;

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

/** A signed upload as the route receives it: the agent's headers and the exact bytes they sign. */
export const SignedUploadSchema = z.strictObject({
  agent_id: z.string().regex(AGENT_ID, "an agent id"),
  signature: z.string().regex(SIGNATURE, "an Ed25519 signature, base64url"),
  idempotency_key: z.string().regex(SCAN_ID, "the scan's scan_id (a UUID)"),
  body: z.instanceof(Buffer),
});

export const deployTokenDeclaration = declareOperation({
  id: "createDeployToken",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893", max_uses: 1, expires_in_hours: 24 },
  summary: "Get a deploy token for the internal network scanner of a practice you own",
  description:
    "No body needed: the token is valid 24 hours for one registration. An optional JSON body may set expires_in_hours " +
    "(1–720) and max_uses (1–1000). The token carries the server URL and the CA's SHA-256 pin; `hcs-scanner register " +
    "--key <token>` needs nothing else. Shown once, stored hashed.",
  input: DeployOptionsSchema.extend({ npi: NpiSchema }),
  output: DeployTokenResponseSchema,
  errors: ["invalid_npi", "npi_not_found", "forbidden"],
  readOnly: false,
  openWorld: false,
  rest: {
    method: "post",
    // The path the scanner names in its errors (@hcs/protocol), in the router's `:param` form.
    path: SCANNER_API_PATHS.deploy.replace("{npi}", ":npi"),
    status: 201,
    headers: { "Cache-Control": "no-store" },
  },
});

export const registerAgentDeclaration = declareOperation({
  id: "registerAgent",
  group: "b-open",
  access: { rule: "credential", credential: "deploy_token" },
  example: {
    deploy_token: "hcs_dt_example",
    public_key: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
    proof: "A".repeat(86),
    hostname: "frontdesk-01",
    platform: "linux",
    scanner_version: "0.1.0",
  },
  summary: "Register a scanner with a deploy token and its Ed25519 public key",
  description:
    "Authenticated by the deploy token (no API key). `proof` is the Ed25519 signature, with the new key, of " +
    '"hcs-agent-register-v1\\n<public_key>\\n<deploy_token>". 401 when the token is unknown, expired or revoked (also when the API key that created it was revoked); 409 when used up.',
  input: AgentRegistrationRequestSchema,
  output: AgentRegistrationResponseSchema,
  errors: [
    "invalid_credentials",
    "invalid_signature",
    "deploy_token_expired",
    "deploy_token_revoked",
    "deploy_token_used",
  ],
  readOnly: false,
  openWorld: false,
  rest: { method: "post", path: SCANNER_API_PATHS.register, status: 201 },
});

export const uploadResultsDeclaration = declareOperation({
  id: "uploadScanResults",
  group: "b-open",
  access: { rule: "credential", credential: "agent_signature" },
  example: {
    agent_id: "agt_0123456789abcdef",
    signature: "A".repeat(86),
    idempotency_key: "3f7e0c5e-1d2a-4b8c-9e6f-0a1b2c3d4e5f",
    body: Buffer.from("{}"),
  },
  summary: "Upload an internal scan (signed by the scanner agent)",
  description:
    `Authenticated by the agent's Ed25519 signature (no API key): ${UPLOAD_HEADERS.agent}, ${UPLOAD_HEADERS.signature} ` +
    `(base64url signature of "hcs-scan-upload-v1\\n<agent_id>\\n<Idempotency-Key>\\n<hex SHA-256 of the body>") and ` +
    "Idempotency-Key (the document's scan_id). A repeated upload is answered 200 with duplicate=true and stored once. A revoked agent gets 403 agent_revoked; a one-shot agent past its lifetime (an hour after its last upload, a day after it registered when it never uploaded) 403 agent_expired. " +
    `Limits per upload: ${SCAN_UPLOAD_LIMITS.upload_bytes} bytes, ${SCAN_UPLOAD_LIMITS.findings_per_upload} findings, ` +
    `${SCAN_UPLOAD_LIMITS.findings_per_host} findings about one host (a finding's host, else the scanning machine), ` +
    `${SCAN_UPLOAD_LIMITS.hosts_per_upload} distinct hosts. Beyond one: 413 payload_too_large with details ` +
    '{limit: "upload_bytes" | "findings_per_upload" | "findings_per_host" | "hosts_per_upload", max, actual, host?}; ' +
    "hcs-scanner caps its uploads to these limits. The raw document is not stored: a summary, the latest phase facts " +
    "and the body's SHA-256 are.",
  input: SignedUploadSchema,
  output: ScanUploadAcceptanceSchema,
  errors: [
    "invalid_body",
    "unsupported_media_type",
    "payload_too_large",
    "invalid_credentials",
    "invalid_signature",
    "agent_revoked",
    "agent_expired",
    "idempotency_conflict",
  ],
  inputErrors: {
    agent_id: {
      code: "invalid_signature",
      message: `send ${UPLOAD_HEADERS.agent} and ${UPLOAD_HEADERS.signature} (Ed25519, base64url)`,
    },
    signature: {
      code: "invalid_signature",
      message: `send ${UPLOAD_HEADERS.agent} and ${UPLOAD_HEADERS.signature} (Ed25519, base64url)`,
    },
    idempotency_key: { code: "invalid_body", message: "Idempotency-Key must be the scan's scan_id (a UUID)" },
  },
  readOnly: false,
  openWorld: false,
  rest: {
    method: "post",
    path: SCANNER_API_PATHS.results,
    status: 201,
    otherStatuses: [{ status: 200, description: "A replay of an upload already stored (duplicate: true)" }],
    answer: (acceptance: { duplicate: boolean }) => ({ status: acceptance.duplicate ? 200 : 201 }),
    readsOwnBody: true,
  },
});

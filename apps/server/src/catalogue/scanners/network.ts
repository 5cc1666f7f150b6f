import { describeExceededLimit, SCAN_UPLOAD_LIMITS, type ScanUploadLimitExceeded, UPLOAD_HEADERS } from "@hcs/protocol";
import type { AppDeps } from "../../app-deps.js";
import { scannerManifest } from "../../downloads/scanner-manifest.js";
import { isServiceError, ServiceError } from "../../errors.js";
import { isJsonRequest, readRawBody } from "../../http/body.js";
import type { HcsContext } from "../../http/state.js";
import { bindOperation } from "../../operations/operation.js";
import { acceptScanUpload, registerAgent } from "../../services/agents.js";
import { issueDeployToken } from "../../services/deploy-tokens.js";
import {
  deployTokenDeclaration,
  registerAgentDeclaration,
  SignedUploadSchema,
  uploadResultsDeclaration,
} from "./network.declaration.js";

/** The install commands when this server serves the scanner package: npm fetches it here, trusting our CA. */
export function installFromThisServer(deps: AppDeps) {
  const manifest = scannerManifest(deps);
  return {
    npm: manifest.npm,
    ca_pem: deps.downloads!.caPem,
    package: { url: manifest.url, sha256: manifest.sha256, integrity: manifest.integrity },
  };
}

export const deployTokenOperation = bindOperation(deployTokenDeclaration, async (input, call) => {
  call.setResource(`practice:${input.npi}`);
  return issueDeployToken(call.deps, {
    accountId: call.caller!.accountId,
    keyId: call.caller!.keyId,
    npi: input.npi,
    serverUrl: call.deps.config.publicUrl,
    caSha256: call.deps.tls.caSha256,
    ...(call.deps.downloads?.scanner ? { install: installFromThisServer(call.deps) } : {}),
    ...(input.expires_in_hours ? { expiresInHours: input.expires_in_hours } : {}),
    ...(input.max_uses ? { maxUses: input.max_uses } : {}),
  });
});

export const registerAgentOperation = bindOperation(registerAgentDeclaration, async (input, call) => {
  const registered = await registerAgent(call.deps, input, call.deps.config.publicUrl);
  call.setResource(`agent:${registered.agent_id}`);
  return registered;
});

/** The signed upload: its agent headers, checked before the body is read, then the exact bytes they sign. */
async function uploadInput(ctx: HcsContext): Promise<unknown> {
  // The headers are checked before the body is read; the schema above words what is wrong with them.
  const headers = {
    agent_id: ctx.get(UPLOAD_HEADERS.agent),
    signature: ctx.get(UPLOAD_HEADERS.signature),
    idempotency_key: ctx.get(UPLOAD_HEADERS.idempotencyKey),
  };
  if (!SignedUploadSchema.omit({ body: true }).safeParse(headers).success) return headers;
  if (!isJsonRequest(ctx))
    throw new ServiceError("unsupported_media_type", "send the scan document as application/json");
  return { ...headers, body: await readUploadBody(ctx) };
}

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

export const uploadResultsOperation = bindOperation(
  uploadResultsDeclaration,
  async (input, call) => {
    const scanId = input.idempotency_key.toLowerCase();
    call.setResource(`scan:${scanId}`);
    const { acceptance } = await acceptScanUpload(call.deps, {
      agentId: input.agent_id,
      idempotencyKey: scanId,
      signature: input.signature,
      raw: input.body,
    });
    return acceptance;
  },
  { input: uploadInput },
);

import { createHash, generateKeyPairSync, type KeyObject, randomUUID, sign } from "node:crypto";
import { registrationProofMessage, type ScanResultDocument, UPLOAD_HEADERS, uploadSigningMessage } from "@hcs/protocol";

/** A scanner identity as `hcs-scanner` makes one: an Ed25519 key pair, the public half as raw base64url. */
export function newAgentKeys(): { privateKey: KeyObject; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const jwk = publicKey.export({ format: "jwk" }) as { x: string };
  return { privateKey, publicKey: jwk.x };
}

export function registrationBody(
  token: string,
  keys: { privateKey: KeyObject; publicKey: string },
  hostname = "frontdesk-01",
) {
  const proof = sign(null, Buffer.from(registrationProofMessage(token, keys.publicKey)), keys.privateKey).toString(
    "base64url",
  );
  return {
    deploy_token: token,
    public_key: keys.publicKey,
    proof,
    hostname,
    platform: "linux",
    scanner_version: "0.1.0",
  };
}

/** Headers of a signed upload of `body`. */
export function uploadHeaders(
  agentId: string,
  scanId: string,
  body: string,
  privateKey: KeyObject,
): Record<string, string> {
  const digest = createHash("sha256").update(body).digest("hex");
  const signature = sign(null, Buffer.from(uploadSigningMessage(agentId, scanId, digest)), privateKey).toString(
    "base64url",
  );
  return {
    "Content-Type": "application/json",
    [UPLOAD_HEADERS.agent]: agentId,
    [UPLOAD_HEADERS.signature]: signature,
    [UPLOAD_HEADERS.idempotencyKey]: scanId,
  };
}

/** A small, valid internal scan document for `agentId`. */
export function scanDocument(
  agentId: string,
  o: { hostname?: string; unencrypted?: boolean } = {},
): ScanResultDocument {
  const hostname = o.hostname ?? "frontdesk-01";
  return {
    schema_version: 1,
    scan_id: randomUUID(),
    agent_id: agentId,
    scanner_version: "0.1.0",
    host: { hostname, platform: "linux", os_name: "Debian GNU/Linux", os_version: "12", arch: "x64" },
    scope: { mode: "host", targets: [] },
    started_at: "2026-11-22T01:00:00.000Z",
    completed_at: "2026-11-22T01:00:05.000Z",
    phases: [
      {
        id: "disk_encryption",
        status: "ok",
        duration_ms: 40,
        facts: { volumes: 1 },
        findings: o.unencrypted
          ? [
              {
                id: `disk_encryption.unencrypted:${hostname}:/`,
                check_id: "disk_encryption.unencrypted_volume",
                source: "internal",
                category: "encryption",
                severity: "critical",
                title: "Fixed volume / is not encrypted",
                detail: "The root volume holds ePHI and is not encrypted.",
                evidence: { mount: "/", fs: "ext4" },
                remediation: "Encrypt the volume with LUKS.",
                controls: ["164.312(a)(2)(iv)"],
                grade_cap: "unencrypted_ephi_device",
              },
            ]
          : [],
      },
      { id: "backups", status: "ok", duration_ms: 10, facts: {}, findings: [] },
      { id: "mfa", status: "unsupported", duration_ms: 0, reason: "not on this platform", facts: {}, findings: [] },
    ],
  };
}

/**
 * A signed upload of a small valid scan document (scanDocument's), in the shape acceptScanUpload takes: what the
 * server reads from the request (the agent header, Idempotency-Key, the signature and the raw body).
 */
export function signedUpload(agentId: string, privateKey: KeyObject, doc: ScanResultDocument = scanDocument(agentId)) {
  const body = JSON.stringify(doc);
  return {
    agentId,
    idempotencyKey: doc.scan_id,
    signature: uploadHeaders(agentId, doc.scan_id, body, privateKey)[UPLOAD_HEADERS.signature]!,
    raw: Buffer.from(body),
  };
}

/** The HTTPS request of a signed upload of a small valid scan document: POST it to /v1/a2a/network/results. */
export function uploadRequest(agentId: string, privateKey: KeyObject, doc: ScanResultDocument = scanDocument(agentId)) {
  const body = JSON.stringify(doc);
  return { method: "POST" as const, headers: uploadHeaders(agentId, doc.scan_id, body, privateKey), body };
}

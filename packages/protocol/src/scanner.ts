import { z } from "zod";
import { FindingInputSchema } from "./finding.js";
import { OwnerGradeRecordSchema } from "./grade-record.js";
import { JsonObjectSchema } from "./json.js";
import { NpiSchema } from "./npi.js";
import { PhaseIdSchema, PhaseStatusSchema } from "./phases.js";
import { SCAN_UPLOAD_LIMITS } from "./upload-limits.js";

const HEX64 = z.string().regex(/^[0-9a-f]{64}$/, "64 lower-case hex digits");
/** Ed25519 public key: the raw 32 bytes, base64url without padding (43 characters). */
export const Ed25519PublicKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/, "Ed25519 public key: 32 bytes as base64url (43 characters)");

export const PLATFORMS = ["linux", "darwin", "win32"] as const;
export const PlatformSchema = z.enum(PLATFORMS);
export type Platform = z.infer<typeof PlatformSchema>;

/** The scanner package a server serves (GET /downloads/hcs-scanner.json): where it is and how to check it. */
export const ScannerPackageManifestSchema = z
  .object({
    name: z.string(),
    version: z.string(),
    file: z.string(),
    url: z.url(),
    size: z.int().min(0),
    /** SHA-256 of the tarball, hex (compare with `sha256sum`). */
    sha256: HEX64,
    /** npm's integrity string (sha512, base64), as `npm pack --json` and package-lock.json show it. */
    integrity: z.string().regex(/^sha512-[A-Za-z0-9+/]{86}==$/),
    /** The CA certificate this server's TLS chains to (PEM), and its SHA-256 (the deploy token's pin). */
    ca_url: z.url(),
    ca_sha256: HEX64,
    /** The install command: npm fetches the tarball from this server, trusting its CA. */
    npm: z.string(),
  })
  .meta({ id: "ScannerPackageManifest", description: "The scanner package this server serves, with its digests" });
export type ScannerPackageManifest = z.infer<typeof ScannerPackageManifestSchema>;

/** Response of POST /v1/a2a/network/deploy/{npi} (docs/api.md#the-internal-scanner). */
export const DeployTokenResponseSchema = z
  .object({
    deploy_token: z.string(),
    npi: NpiSchema,
    expires_at: z.iso.datetime(),
    max_uses: z.int().min(1),
    server_url: z.url(),
    ca_sha256: HEX64,
    install: z.object({
      /** From this server when it serves the scanner package (`--cafile ./hcs-ca.pem`: save ca_pem there). */
      npm: z.string(),
      /** The server's CA certificate (PEM), for npm's --cafile or NODE_EXTRA_CA_CERTS; its SHA-256 is ca_sha256. */
      ca_pem: z.string().optional(),
      /** The package npm installs, with its digests (absent when this server serves none). */
      package: ScannerPackageManifestSchema.pick({ url: true, sha256: true, integrity: true }).optional(),
      register: z.string(),
      scan: z.string(),
      one_shot: z.string(),
    }),
  })
  .meta({ id: "DeployTokenResponse", description: "A deploy token for the internal network scanner" });
export type DeployTokenResponse = z.infer<typeof DeployTokenResponseSchema>;

/** Request of POST /v1/a2a/network/register. `proof` signs {@link registrationProofMessage} with the new key. */
export const AgentRegistrationRequestSchema = z
  .strictObject({
    deploy_token: z.string().min(1).max(1024),
    public_key: Ed25519PublicKeySchema,
    proof: z.string().regex(/^[A-Za-z0-9_-]{86}$/, "Ed25519 signature as base64url (86 characters)"),
    hostname: z.string().min(1).max(253),
    platform: PlatformSchema,
    os_release: z.string().max(200).optional(),
    scanner_version: z.string().min(1).max(50),
    ephemeral: z.boolean().default(false),
  })
  .meta({ id: "AgentRegistrationRequest" });
export type AgentRegistrationRequest = z.input<typeof AgentRegistrationRequestSchema>;

export const AgentRegistrationResponseSchema = z
  .object({
    agent_id: z.string(),
    npi: NpiSchema,
    practice_name: z.string(),
    server_url: z.url(),
    registered_at: z.iso.datetime(),
  })
  .meta({ id: "AgentRegistrationResponse" });
export type AgentRegistrationResponse = z.infer<typeof AgentRegistrationResponseSchema>;

/** The message an agent signs at registration: proves it holds the private key of `public_key`. */
export function registrationProofMessage(deployToken: string, publicKey: string): string {
  return `hcs-agent-register-v1\n${publicKey}\n${deployToken}`;
}

export const PhaseResultSchema = z
  .object({
    id: PhaseIdSchema,
    status: PhaseStatusSchema,
    duration_ms: z.int().min(0),
    /** Why a phase was skipped, unsupported or failed, in words for the operator. */
    reason: z.string().max(500).optional(),
    error: z.object({ code: z.string().max(100), message: z.string().max(500) }).optional(),
    facts: JsonObjectSchema,
    // No phase can hold more than a whole upload may (SCAN_UPLOAD_LIMITS; more is a 413, not a schema error).
    findings: z.array(FindingInputSchema).max(SCAN_UPLOAD_LIMITS.findings_per_upload),
  })
  .meta({ id: "PhaseResult" });
export type PhaseResult = z.infer<typeof PhaseResultSchema>;

/** The document a scanner uploads (POST /v1/a2a/network/results). Counts and locations only, never ePHI content. */
export const ScanResultDocumentSchema = z
  .strictObject({
    schema_version: z.literal(1),
    scan_id: z.uuid(),
    agent_id: z.string().min(1).max(100),
    scanner_version: z.string().min(1).max(50),
    host: z.object({
      hostname: z.string().min(1).max(253),
      platform: PlatformSchema,
      os_name: z.string().max(200),
      os_version: z.string().max(200),
      arch: z.string().max(50),
    }),
    scope: z.object({
      mode: z.enum(["host", "targets", "auto"]),
      targets: z.array(z.string().max(100)).max(4096),
    }),
    started_at: z.iso.datetime(),
    completed_at: z.iso.datetime(),
    phases: z.array(PhaseResultSchema).min(1).max(12),
  })
  .meta({ id: "ScanResultDocument", description: "An internal scan as uploaded by hcs-scanner" });
export type ScanResultDocument = z.infer<typeof ScanResultDocumentSchema>;

/** Response of POST /v1/a2a/network/results. */
export const ScanUploadAcceptanceSchema = z
  .object({
    scan_id: z.uuid(),
    agent_id: z.string(),
    npi: NpiSchema,
    duplicate: z.boolean(),
    grade: OwnerGradeRecordSchema.nullable(),
  })
  .meta({ id: "ScanUploadAcceptance" });
export type ScanUploadAcceptance = z.infer<typeof ScanUploadAcceptanceSchema>;

/** Headers of a signed upload. */
export const UPLOAD_HEADERS = {
  agent: "X-HCS-Agent-Id",
  contentSha256: "X-HCS-Content-SHA256",
  signature: "X-HCS-Signature",
  idempotencyKey: "Idempotency-Key",
} as const;

/** The message an agent signs for an upload: binds agent, idempotency key and body digest. */
export function uploadSigningMessage(agentId: string, idempotencyKey: string, bodySha256Hex: string): string {
  return `hcs-scan-upload-v1\n${agentId}\n${idempotencyKey}\n${bodySha256Hex}`;
}

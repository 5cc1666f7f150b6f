import { createHash, createPublicKey, verify } from "node:crypto";
import {
  type AgentRegistrationRequest,
  type AgentRegistrationResponse,
  AgentRegistrationResponseSchema,
  base64UrlDecode,
  registrationProofMessage,
  type ScanUploadAcceptance,
  ScanUploadAcceptanceSchema,
  uploadSigningMessage,
} from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import { withRestoreFindings } from "../readiness/host-restore.js";
import { newId } from "../util/ids.js";
import { timeSlicer } from "../util/time-slicer.js";
import { consumeDeployToken, deployTokenHash } from "./deploy-tokens.js";
import { iso, type ServiceDeps } from "./deps.js";
import { agentState } from "./enrolled-agents.js";
import { withServerPhaseFindings } from "./intel/host-intel.js";
import { recordInternalScanIn } from "./internal-scan-record.js";
import { parseScanUpload } from "./scan-upload-parse.js";
import { pruneScanFacts, scanUploadFacts, scanUploadSummary } from "./scan-upload-record.js";

/** Verifies an Ed25519 signature (base64url) over `message` with a raw public key (base64url). */
export function verifyEd25519(publicKey: string, message: string, signature: string): boolean {
  const sig = base64UrlDecode(signature);
  if (sig?.length !== 64) return false;
  try {
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: publicKey }, format: "jwk" });
    return verify(null, Buffer.from(message, "utf8"), key, sig);
  } catch {
    return false;
  }
}

/**
 * Registers a scanner: the deploy token's use and the new agent are written in one transaction, and the proof (a
 * signature over the token with the new key) shows the caller holds the private key it enrols. The private key never
 * leaves the scanner's host.
 */
export async function registerAgent(
  deps: ServiceDeps,
  request: AgentRegistrationRequest,
  serverUrl: string,
): Promise<AgentRegistrationResponse> {
  // Check the proof before spending a use of the token on a request that would fail anyway.
  if (
    !verifyEd25519(
      request.public_key,
      registrationProofMessage(request.deploy_token, request.public_key),
      request.proof,
    )
  ) {
    throw new ServiceError("invalid_signature", "the registration proof does not verify against public_key");
  }
  // One transaction: the use is counted only if the agent is stored, so a failed insert does not burn it.
  const now = deps.now();
  const registered = await deps.store.db.transaction().execute(async (trx) => {
    // A retry of a registration that succeeded (the scanner lost the answer, or could not save it): the same key
    // with the same token is the same agent, answered again without spending another use.
    const again = await trx
      .selectFrom("agents as a")
      .innerJoin("deploy_tokens as t", "t.id", "a.deploy_token_id")
      .innerJoin("practices as p", "p.npi", "a.npi")
      .select(["a.id", "a.npi", "a.registered_at", "p.name"])
      .where("t.token_hash", "=", deployTokenHash(request.deploy_token))
      .where("a.public_key", "=", request.public_key)
      .where("a.revoked_at", "is", null)
      .executeTakeFirst();
    if (again)
      return { agentId: again.id, npi: again.npi, practiceName: again.name, registeredAt: again.registered_at };
    const registeredAt = iso(now);
    const token = await consumeDeployToken(trx, request.deploy_token, now);
    const practice = await trx
      .selectFrom("practices")
      .select("name")
      .where("npi", "=", token.npi)
      .executeTakeFirstOrThrow();
    const agentId = newId("agt");
    await trx
      .insertInto("agents")
      .values({
        id: agentId,
        npi: token.npi,
        account_id: token.account_id,
        deploy_token_id: token.id,
        public_key: request.public_key,
        hostname: request.hostname.toLowerCase(),
        platform: request.platform,
        os_release: request.os_release ?? null,
        scanner_version: request.scanner_version,
        ephemeral: request.ephemeral ? 1 : 0,
        registered_at: registeredAt,
        last_seen_at: null,
        revoked_at: null,
      })
      .execute();
    return { agentId, npi: token.npi, practiceName: practice.name, registeredAt };
  });
  return AgentRegistrationResponseSchema.parse({
    agent_id: registered.agentId,
    npi: registered.npi,
    practice_name: registered.practiceName,
    server_url: serverUrl,
    registered_at: registered.registeredAt,
  });
}

export interface SignedUpload {
  readonly agentId: string;
  readonly idempotencyKey: string;
  readonly signature: string;
  readonly raw: Buffer;
}

/**
 * Budget of one uninterrupted slice of an upload's parsing and writing: other requests (health probes included)
 * wait about this long behind an upload, plus the few steps that cannot be split (JSON.parse of up to 2 MiB, the
 * grade's read of the practice's open findings: ~10 ms each). A yield costs one event-loop turn.
 */
const SCAN_PACE_MS = 4;

/**
 * Accepts a signed scan upload: the signature over (agent, idempotency key, body SHA-256) must verify with the
 * agent's key, the body must match the protocol schema within the upload limits (413 beyond), and the scan id is
 * the idempotency key. The same upload sent again gets the stored answer (and is stored once); a different body
 * under a used key is a conflict; both are decided from the stored digest, before the body is parsed. Findings
 * become the host's internal assessment and the unified grade is recomputed. Parsing and writing are paced
 * (SCAN_PACE_MS slices), so a large upload never holds the event loop for long. The raw document is not kept: a
 * summary, the phase facts of the agent's newest scans, the digest and the acceptance are.
 */
export async function acceptScanUpload(
  deps: ServiceDeps,
  upload: SignedUpload,
): Promise<{ created: boolean; acceptance: ScanUploadAcceptance }> {
  const agent = await deps.store.db
    .selectFrom("agents")
    .selectAll()
    .where("id", "=", upload.agentId)
    .executeTakeFirst();
  if (!agent)
    throw new ServiceError("invalid_credentials", "unknown scanner agent; register it again with a new deploy token");
  const digest = createHash("sha256").update(upload.raw).digest("hex");
  if (
    !verifyEd25519(agent.public_key, uploadSigningMessage(agent.id, upload.idempotencyKey, digest), upload.signature)
  ) {
    throw new ServiceError("invalid_signature", "the upload signature does not verify with this agent's key");
  }
  // Checked after the signature, so only the agent's own key learns that it was revoked or has expired.
  if (agent.revoked_at) throw agentRevoked();
  if (agentState(agent, deps.now()) === "expired") throw agentExpired();
  // A replay (the spool resending) costs a lookup, not a parse.
  const previous = await storedUpload(deps, upload.idempotencyKey);
  if (previous) return replay(previous, agent.id, digest);

  const pace = timeSlicer(SCAN_PACE_MS);
  const doc = await parseScanUpload(upload.raw, pace);
  if (doc.scan_id !== upload.idempotencyKey)
    throw new ServiceError("invalid_body", "Idempotency-Key must equal the document's scan_id");
  if (doc.agent_id !== agent.id)
    throw new ServiceError("invalid_body", "the document's agent_id is not the signing agent");

  const host = doc.host.hostname.toLowerCase();
  const receivedAt = deps.now();
  // Results are dated when the scan ran (never in the future), so a spooled scan that arrives after a newer one
  // from the same host is stored but does not replace the newer results (recordInternalScanIn, per phase).
  const scannedAt = new Date(Math.min(Date.parse(doc.completed_at), receivedAt.getTime()));
  try {
    // `pace` yields inside this transaction only while the findings are written. On SQLite the transaction holds
    // the one connection, so other requests' queries wait for it; the hot-path reads that bypass the query builder
    // on that connection (keys, rate limits, grades) read none of the tables written before the last yield, and no
    // yield falls between the new grade row and the commit.
    return await deps.store.db.transaction().execute(async (trx) => {
      // Threat intelligence: the server's end-of-life verdicts and KEV matches, each in its phase (docs/intelligence.md).
      const intel = await withServerPhaseFindings(trx, doc, host, receivedAt);
      // Restore readiness: the host's restore finding, from its backup tool's record and the practice's restore tests.
      const recorded = await withRestoreFindings(trx, intel, agent.npi, host, receivedAt);
      const grade = await recordInternalScanIn(
        trx,
        { npi: agent.npi, doc: recorded, subject: host, scannedAt, now: receivedAt },
        pace,
      ).catch((err: unknown) => {
        // A practice none of whose categories has data yet has no grade; the scan is still stored.
        if (err instanceof ServiceError && err.code === "no_grade_yet") return null;
        throw err;
      });
      const acceptance = ScanUploadAcceptanceSchema.parse({
        scan_id: doc.scan_id,
        agent_id: agent.id,
        npi: agent.npi,
        duplicate: false,
        grade,
      });
      await trx
        .insertInto("scan_uploads")
        .values({
          scan_id: doc.scan_id,
          agent_id: agent.id,
          npi: agent.npi,
          body_sha256: digest,
          received_at: iso(receivedAt),
          completed_at: doc.completed_at,
          summary: JSON.stringify(scanUploadSummary(doc)),
          facts: JSON.stringify(scanUploadFacts(doc)),
          acceptance: JSON.stringify(acceptance),
        })
        .execute();
      await pruneScanFacts(trx, agent.id);
      // Revoked while this upload was being checked: nothing of it is kept.
      const seen = await trx
        .updateTable("agents")
        .set({ last_seen_at: iso(receivedAt) })
        .where("id", "=", agent.id)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (Number(seen.numUpdatedRows) === 0) throw agentRevoked();
      return { created: true, acceptance };
    });
  } catch (err) {
    // Two copies of one upload racing: the loser's insert hits the primary key; answer it as a replay.
    const again = await storedUpload(deps, doc.scan_id);
    if (again) return replay(again, agent.id, digest);
    throw err;
  }
}

function storedUpload(deps: ServiceDeps, scanId: string) {
  return deps.store.db
    .selectFrom("scan_uploads")
    .select(["agent_id", "body_sha256", "acceptance"])
    .where("scan_id", "=", scanId)
    .executeTakeFirst();
}

const agentExpired = () =>
  new ServiceError(
    "agent_expired",
    "this one-shot scanner agent has expired (an hour after its last upload, or a day after it registered); run hcs-scanner one-shot again with a new deploy token",
  );

const agentRevoked = () =>
  new ServiceError("agent_revoked", "this scanner agent has been revoked; enrol it again with a new deploy token");

function replay(
  previous: { agent_id: string; body_sha256: string; acceptance: string },
  agentId: string,
  digest: string,
): { created: boolean; acceptance: ScanUploadAcceptance } {
  if (previous.agent_id !== agentId || previous.body_sha256 !== digest) {
    throw new ServiceError("idempotency_conflict", "this scan id was already uploaded with a different document");
  }
  return {
    created: false,
    acceptance: { ...(JSON.parse(previous.acceptance) as ScanUploadAcceptance), duplicate: true },
  };
}

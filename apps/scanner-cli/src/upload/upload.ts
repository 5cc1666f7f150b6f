import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import {
  describeExceededLimit,
  isRetryableStatus,
  SCAN_UPLOAD_LIMITS,
  SCANNER_API_PATHS,
  type ScanUploadAcceptance,
  ScanUploadAcceptanceSchema,
  UPLOAD_HEADERS,
  uploadSigningMessage,
} from "@hcs/protocol";
import { CliError } from "../cli/errors.js";
import { writeFileAtomic } from "../config/atomic-write.js";
import type { ConfigFiles } from "../config/paths.js";
import { type AgentKeys, signMessage } from "../identity/keys.js";
import { type ServerClient, ServerRefusal } from "../transport/server-client.js";
import { listSpool, rejectFromSpool, removeFromSpool, type SpooledUpload, spoolUpload } from "./spool.js";

export const RESULTS_PATH = SCANNER_API_PATHS.results;

export type UploadOutcome =
  | { readonly kind: "uploaded"; readonly acceptance: ScanUploadAcceptance }
  | { readonly kind: "spooled"; readonly path: string; readonly reason: string };

/** The body and signature of an upload: the signature binds agent, scan id (the idempotency key) and body digest. */
export function signUpload(agentId: string, scanId: string, body: string, keys: AgentKeys): string {
  const digest = createHash("sha256").update(body).digest("hex");
  return signMessage(keys, uploadSigningMessage(agentId, scanId, digest));
}

/**
 * Sends one signed upload (retried by the client on network errors, 429 and 5xx: the server deduplicates). A body
 * over the protocol's byte limit is refused here, as the server would refuse it: the server may close the
 * connection before reading such a body, which would look like a network error and keep it in the spool for good.
 * (This scanner fits its documents to the limits; a spool written by an older version may hold larger ones.)
 */
export async function sendUpload(
  client: ServerClient,
  entry: Pick<SpooledUpload, "agent_id" | "scan_id" | "signature" | "body">,
): Promise<ScanUploadAcceptance> {
  const bytes = Buffer.byteLength(entry.body);
  if (bytes > SCAN_UPLOAD_LIMITS.upload_bytes) {
    const exceeded = { limit: "upload_bytes", max: SCAN_UPLOAD_LIMITS.upload_bytes, actual: bytes } as const;
    throw new ServerRefusal(413, "payload_too_large", describeExceededLimit(exceeded), { ...exceeded });
  }
  const res = await client.postJson(RESULTS_PATH, entry.body, {
    [UPLOAD_HEADERS.agent]: entry.agent_id,
    [UPLOAD_HEADERS.signature]: entry.signature,
    [UPLOAD_HEADERS.idempotencyKey]: entry.scan_id,
  });
  const parsed = ScanUploadAcceptanceSchema.safeParse(res.json);
  if (!parsed.success)
    throw new CliError("server_error", "the server accepted the upload but answered in an unexpected shape");
  return parsed.data;
}

/**
 * Uploads a scan, or spools it when the server cannot be reached (nothing is lost: `hcs-scanner flush` or the next
 * run sends it). A refusal by the server (bad signature, schema, 413 over an upload limit) is not spooled: retrying
 * would not help; it is thrown, and reported with the server's reason.
 */
export async function uploadOrSpool(
  client: ServerClient,
  files: ConfigFiles,
  entry: { agent_id: string; scan_id: string; signature: string; body: string; server_url: string; ca_pem: string },
  now: Date,
): Promise<UploadOutcome> {
  const spool = (lastError: string, reason: string): UploadOutcome => {
    const path = spoolUpload(files, { ...entry, spooled_at: now.toISOString(), attempts: 1, last_error: lastError });
    return { kind: "spooled", path, reason };
  };
  try {
    return { kind: "uploaded", acceptance: await sendUpload(client, entry) };
  } catch (err) {
    if (err instanceof CliError && err.code === "server_unreachable") return spool(err.message, err.message);
    if (err instanceof ServerRefusal && isRetryableStatus(err.status))
      return spool(`server answered ${err.status}`, `the server answered ${err.status} (${err.code})`);
    throw err;
  }
}

export interface FlushReport {
  readonly sent: { scan_id: string; duplicate: boolean; grade: string | null }[];
  readonly remaining: number;
  readonly rejected: { scan_id: string; reason: string }[];
}

/** Sends every spooled upload in order; stops at the first that still cannot reach the server. */
export async function flushSpool(
  clientFor: (entry: SpooledUpload) => ServerClient,
  files: ConfigFiles,
): Promise<FlushReport> {
  const queue = listSpool(files);
  const sent: FlushReport["sent"] = [];
  const rejected: FlushReport["rejected"] = [];
  for (const entry of queue) {
    try {
      const acceptance = await sendUpload(clientFor(entry), entry);
      removeFromSpool(files, entry.scan_id);
      sent.push({ scan_id: entry.scan_id, duplicate: acceptance.duplicate, grade: acceptance.grade?.grade ?? null });
    } catch (err) {
      if (err instanceof ServerRefusal && !isRetryableStatus(err.status)) {
        rejectFromSpool(files, entry.scan_id, `${err.status} ${err.code}: ${err.message}`);
        rejected.push({ scan_id: entry.scan_id, reason: `${err.code}: ${err.message}` });
        continue;
      }
      settleLastScan(files, sent, rejected);
      return { sent, rejected, remaining: queue.length - sent.length - rejected.length };
    }
  }
  settleLastScan(files, sent, rejected);
  return { sent, rejected, remaining: 0 };
}

/**
 * `status` reads the last scan's upload state from last-scan.json: once its spooled upload is sent (or refused),
 * say so there, so that status after a flush does not still read "spooled". A last scan that cannot be read or
 * rewritten is left as it is (status then shows what it knew).
 */
function settleLastScan(files: ConfigFiles, sent: FlushReport["sent"], rejected: FlushReport["rejected"]): void {
  if (!existsSync(files.lastScan)) return;
  try {
    const last = JSON.parse(readFileSync(files.lastScan, "utf8")) as { scan_id?: string; upload?: string };
    const wasSent = sent.find((s) => s.scan_id === last.scan_id);
    const wasRejected = rejected.some((r) => r.scan_id === last.scan_id);
    if (!wasSent && !wasRejected) return;
    writeFileAtomic(
      files.lastScan,
      `${JSON.stringify({ ...last, upload: wasSent ? "uploaded" : "rejected" }, null, 2)}\n`,
      0o600,
    );
  } catch {
    // Not ours to fail a flush over.
  }
}

import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../config/atomic-write.js";
import { ensureDir } from "../config/ensure-dir.js";
import type { ConfigFiles } from "../config/paths.js";

/**
 * An upload waiting to be sent: the exact body and its signature (the signature covers agent, scan id and the
 * body's digest, not the time, so it stays valid), plus where it goes. Written atomically, named by scan id, so a
 * scan is spooled at most once and a crash never leaves a half-written entry.
 */
export const SpooledUploadSchema = z.object({
  scan_id: z.uuid(),
  agent_id: z.string(),
  server_url: z.url(),
  /** The server's pinned CA, so the entry can be sent even by a one-shot run whose identity was never saved. */
  ca_pem: z.string().includes("-----BEGIN CERTIFICATE-----"),
  signature: z.string(),
  body: z.string(),
  spooled_at: z.iso.datetime(),
  attempts: z.int().min(0),
  last_error: z.string().nullable(),
});
export type SpooledUpload = z.infer<typeof SpooledUploadSchema>;

const entryName = (scanId: string) => `${scanId}.json`;

export function spoolUpload(files: ConfigFiles, entry: SpooledUpload): string {
  const path = join(files.spool, entryName(entry.scan_id));
  writeFileAtomic(path, JSON.stringify(entry), 0o600);
  return path;
}

/** Spooled uploads, oldest first; unreadable files are set aside in rejected/ rather than blocking the queue. */
export function listSpool(files: ConfigFiles): SpooledUpload[] {
  if (!existsSync(files.spool)) return [];
  const out: SpooledUpload[] = [];
  for (const name of readdirSync(files.spool)) {
    if (!name.endsWith(".json")) continue;
    const path = join(files.spool, name);
    const parsed = SpooledUploadSchema.safeParse(
      (() => {
        try {
          return JSON.parse(readFileSync(path, "utf8"));
        } catch {
          return null;
        }
      })(),
    );
    if (parsed.success) out.push(parsed.data);
    else moveToRejected(files, name, "unreadable spool entry");
  }
  return out.sort((a, b) => a.spooled_at.localeCompare(b.spooled_at));
}

export function removeFromSpool(files: ConfigFiles, scanId: string): void {
  rmSync(join(files.spool, entryName(scanId)), { force: true });
}

/** Keeps an entry the server refused for good (for the operator to inspect), out of the retry queue. */
export function rejectFromSpool(files: ConfigFiles, scanId: string, reason: string): void {
  moveToRejected(files, entryName(scanId), reason);
}

function moveToRejected(files: ConfigFiles, name: string, reason: string): void {
  ensureDir(files.rejected, 0o700);
  const from = join(files.spool, name);
  if (!existsSync(from)) return;
  renameSync(from, join(files.rejected, name));
  writeFileAtomic(join(files.rejected, `${name}.reason.txt`), `${reason}\n`, 0o600);
}

import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { ensureDir } from "./ensure-dir.js";

/**
 * Writes a file so that a crash leaves either the old file or the new one, never half of either: a temporary file
 * is written and fsynced beside the target, then renamed over it. `mode` applies from creation (0600 for secrets).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): void {
  ensureDir(dirname(path), 0o700);
  const tmp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(tmp, "wx", mode);
  try {
    writeSync(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/**
 * Proves `dir` can hold the scanner's files before anything irreversible happens (a deploy token spent on the
 * server): creates it (0700) and writes and removes a probe file. Answers the failing path and the error code.
 */
export function probeWritableDir(dir: string): { ok: true } | { ok: false; path: string; code: string } {
  let path = dir;
  try {
    ensureDir(dir, 0o700);
    path = `${dir}/.write-probe-${randomBytes(6).toString("hex")}`;
    closeSync(openSync(path, "wx", 0o600));
    rmSync(path);
    return { ok: true };
  } catch (err) {
    return { ok: false, path, code: (err as NodeJS.ErrnoException).code ?? String(err) };
  }
}

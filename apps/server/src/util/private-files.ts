import { chmodSync, closeSync, existsSync, openSync, statSync } from "node:fs";

// File modes mean nothing on Windows (ACLs protect files there); every check here is POSIX only.
const POSIX = process.platform !== "win32";

/** Permission bits that let the group or others read, write or search. */
const NOT_OWNER_ONLY = 0o077;

/** A private key file that others can read: the process refuses it, as ssh refuses such a key. */
export class ExposedKeyFileError extends Error {
  readonly code = "exposed_key_file" as const;
  constructor(
    readonly file: string,
    readonly mode: number,
  ) {
    super(
      `${file} is readable by group or others (mode ${mode.toString(8).padStart(4, "0")}); private key material must be ` +
        `owner-only: run chmod 600 ${file}`,
    );
    this.name = "ExposedKeyFileError";
  }
}

/** A data directory anyone may write to: the process refuses it (exit 2), naming the directory and the fix. */
export class WritableDataDirError extends Error {
  readonly code = "writable_data_dir" as const;
  constructor(
    readonly dir: string,
    readonly mode: number,
  ) {
    super(
      `the data directory ${dir} is writable by others (mode ${mode.toString(8).padStart(4, "0")}): anyone on this ` +
        `machine could replace the database, the master key or the TLS keys in it; run chmod 700 ${dir}`,
    );
    this.name = "WritableDataDirError";
  }
}

/**
 * Checks the mode of an existing data directory. Writable by others: refused (WritableDataDirError) — any local user
 * could swap the database or plant a key file before the server creates its own. Writable by the group: allowed
 * (a deliberate shared-group setup) but the problem is returned for a warning. Null when the mode is fine or the
 * directory does not exist yet (it is then created 0700).
 */
export function checkDataDirMode(dir: string): string | null {
  if (!POSIX || !existsSync(dir)) return null;
  const mode = statSync(dir).mode & 0o7777;
  if (mode & 0o002) throw new WritableDataDirError(dir, mode);
  if (mode & 0o020)
    return (
      `the data directory ${dir} is writable by its group (mode ${mode.toString(8).padStart(4, "0")}): every member ` +
      `can replace the database and the keys in it; run chmod 700 ${dir} unless that group is meant to`
    );
  return null;
}

/** Throws ExposedKeyFileError when a key file's mode lets anyone but its owner in. */
export function assertOwnerOnly(file: string): void {
  if (!POSIX) return;
  const mode = statSync(file).mode & 0o777;
  if (mode & NOT_OWNER_ONLY) throw new ExposedKeyFileError(file, mode);
}

/**
 * Makes a data file owner-only (0600): creates it empty with that mode when it does not exist, and tightens an
 * existing one. Returns the mode it had when that mode was too open (the caller warns), else null.
 */
export function ensureOwnerOnlyFile(file: string): number | null {
  if (!existsSync(file)) {
    closeSync(openSync(file, "a", 0o600));
    // The umask may have removed bits, never added them; chmod anyway so the mode is exactly 0600.
    if (POSIX) chmodSync(file, 0o600);
    return null;
  }
  if (!POSIX) return null;
  const mode = statSync(file).mode & 0o777;
  if ((mode & NOT_OWNER_ONLY) === 0) return null;
  chmodSync(file, mode & 0o700);
  return mode;
}

import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";

/**
 * `mkdir -p` without Node's recursive mkdir, which spins forever on some pseudo file systems (a --config-dir under
 * /proc kept a CPU at 95 % and ignored SIGTERM): each missing directory is made one at a time from the deepest one
 * that exists, so the first failure (ENOENT, EACCES, ENOTDIR…) is thrown at once, with its path.
 */
export function ensureDir(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    try {
      if (statSync(at).isDirectory()) break;
      const err = new Error(`ENOTDIR: not a directory, mkdir '${at}'`) as NodeJS.ErrnoException;
      err.code = "ENOTDIR";
      err.path = at;
      throw err;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    missing.push(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode });
    } catch (err) {
      // Made meanwhile by another process: fine.
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(d).isDirectory()) throw err;
    }
  }
}

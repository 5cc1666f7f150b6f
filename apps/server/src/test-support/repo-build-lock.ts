import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./doc-commands.js";

const LOCK = join(REPO_ROOT, ".test-results", "repo-build.lock");
const WAIT_MS = 15 * 60_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Runs `fn` — a documented command that builds the repository (`npm start`, `npm run demo`, `npm run build`) — while
 * no other test file of this checkout does the same. Two turbo runs building into the same dist/ at once would each
 * rewrite files the other's processes are loading. The lock is a directory (created atomically) holding the owner's
 * pid; one left by a process that died is taken over.
 */
export async function withRepoBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  mkdirSync(join(REPO_ROOT, ".test-results"), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, "pid"), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(join(LOCK, "pid"), "utf8"));
      } catch {
        // Created but its pid not written yet: the owner is just starting.
      }
      if (Number.isInteger(owner) && !alive(owner)) rmSync(LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`the repository build lock ${LOCK} was held for 15 minutes`);
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

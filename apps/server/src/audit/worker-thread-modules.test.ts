import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { modulesLoadedBy, packagesOf } from "../test-support/loaded-modules.js";

// Each worker thread is a V8 isolate of its own: every module it loads is paid again in its heap. The full
// @hcs/protocol entry (its zod schemas) and Kysely cost ~8 and ~7 MiB per isolate; the sequencer needs
// neither (docs/performance.md#memory).
const SRC = join(import.meta.dirname, "..");

describe("the worker threads' modules", () => {
  for (const entry of ["audit/sequencer-worker.ts"]) {
    it(`${entry} loads SQLite and the schema-free protocol entry, not zod, Kysely or the full protocol`, () => {
      const urls = modulesLoadedBy(join(SRC, entry));
      const packages = packagesOf(urls);
      // The observation works: the worker's own database driver is seen.
      expect(packages).toContain("better-sqlite3");
      expect(packages).not.toContain("zod");
      expect(packages).not.toContain("kysely");
      expect(urls.filter((u) => /\/packages\/protocol\/(src|dist)\/index\.(ts|js)$/.test(u))).toEqual([]);
    }, 30_000);
  }
});

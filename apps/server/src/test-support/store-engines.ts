import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe } from "vitest";
import type { Engine } from "../store/migrations/engine.js";
import { openStore, type Store } from "../store/store.js";
import { createTestSchema, shouldRunPostgres } from "./postgres.js";

export interface OpenedStore {
  /** A fresh, unmigrated store: SQLite in a temporary directory, or PostgreSQL in a schema of its own. */
  readonly store: Store;
  /**
   * Another connection to the same database, as a second process would have (PostgreSQL: its own pool; SQLite:
   * the same store, since one database file has one writer). The caller closes what it opens.
   */
  another(): Store;
  cleanup(): Promise<void>;
}

export type OpenTestStore = () => Promise<OpenedStore>;

const runPg = await shouldRunPostgres();

/**
 * Runs one conformance suite on every engine (the Hono habit: one case file, every implementation): SQLite always,
 * PostgreSQL when reachable (skipped with a printed reason, or failing when HCS_TEST_PG=required).
 */
export function forEachEngine(suite: (engine: Engine, open: OpenTestStore) => void): void {
  suite("sqlite", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hcs-case-"));
    const store = openStore({ engine: "sqlite", file: join(dir, "test.sqlite") });
    return { store, another: () => store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  });
  describe.skipIf(!runPg)("postgres", () => {
    suite("postgres", async () => {
      const { url, schema, drop } = await createTestSchema();
      return {
        store: openStore({ engine: "postgres", url, schema }),
        another: () => openStore({ engine: "postgres", url, schema }),
        cleanup: drop,
      };
    });
  });
}

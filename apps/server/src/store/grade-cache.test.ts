import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withNpiCheckDigit } from "@hcs/protocol";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSecretBox } from "../secrets/master-key.js";
import type { ServiceDeps } from "../services/deps.js";
import { gradeJsonForNpi } from "../services/grades.js";
import { accountWithKey, DMARC_MISSING, externalAssessment, gradedPractice } from "../test-support/fixtures.js";
import { openStore, type Store } from "./store.js";

/** The next event-loop turn: the grade cache reads its counter at the first lookup of each turn. */
const nextTurn = () => new Promise((r) => setImmediate(r));

describe("grade cache (SQLite)", () => {
  let dir: string;
  let store: Store;
  /** A second connection to the same file, as the operator CLI or a job in another process has. */
  let other: Store;
  let deps: ServiceDeps;
  let otherDeps: ServiceDeps;
  let accountId: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hcs-grade-cache-"));
    const file = join(dir, "hcs.sqlite");
    store = openStore({ engine: "sqlite", file });
    await store.migrate();
    other = openStore({ engine: "sqlite", file });
    const secrets = createSecretBox(Buffer.alloc(32, 7));
    deps = { store, now: () => new Date(), secrets };
    otherDeps = { store: other, now: () => new Date(), secrets };
    accountId = (await accountWithKey(deps, { plan: "professional" })).accountId;
  });
  afterAll(async () => {
    await other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Grade rows read from the store (the lookup's query), counted through the hot statements. */
  const storeReads = () => {
    const spy = vi.spyOn(store.hot, "all");
    return {
      count: () => spy.mock.calls.filter(([, text]) => text.includes("from practices p left join grades g")).length,
      restore: () => spy.mockRestore(),
    };
  };
  const lookup = async (npi: string) => JSON.parse(await gradeJsonForNpi(deps, npi)) as Record<string, unknown>;

  it("reads a practice's grade once, then from memory, until another connection stores a new grade", async () => {
    const npi = "1234567893";
    await gradedPractice(deps, accountId, npi);
    // The writes above may have run in the turn of an earlier lookup's counter read: a lookup answers as of the
    // start of its turn, as the key cache does.
    await nextTurn();
    const first = await lookup(npi);
    await nextTurn();
    const reads = storeReads();
    try {
      expect(await lookup(npi)).toEqual(first);
      await nextTurn();
      expect(await lookup(npi)).toEqual(first);
      expect(reads.count()).toBe(0);

      // Another process stores a worse grade: the next turn's lookup reads it.
      await externalAssessment(otherDeps, npi, [DMARC_MISSING]);
      await nextTurn();
      const after = await lookup(npi);
      expect(reads.count()).toBe(1);
      expect(after.compliance_score).toBeLessThan(first.compliance_score as number);
      await nextTurn();
      expect(await lookup(npi)).toEqual(after);
      expect(reads.count()).toBe(1);
    } finally {
      reads.restore();
    }
  });

  it("a practice renamed or deleted by another connection is read again", async () => {
    const npi = withNpiCheckDigit("777000001");
    await gradedPractice(deps, accountId, npi);
    await nextTurn();
    await lookup(npi);
    // An operator's SQL session (SQLite's shell: no foreign-key enforcement) renames it, then deletes it.
    // (The answer is the stored record, which names the practice as it was graded: what shows the rename reached
    // the cache is that the lookup reads the store again.)
    const session = new SQLite(join(dir, "hcs.sqlite"));
    session.pragma("foreign_keys = OFF");
    const reads = storeReads();
    try {
      await nextTurn();
      await lookup(npi);
      expect(reads.count()).toBe(0);
      session.prepare("update practices set name = ? where npi = ?").run("Renamed Clinic", npi);
      await nextTurn();
      await lookup(npi);
      expect(reads.count()).toBe(1);
      await nextTurn();
      session.prepare("delete from practices where npi = ?").run(npi);
    } finally {
      reads.restore();
      session.close();
    }
    await nextTurn();
    await expect(gradeJsonForNpi(deps, npi)).rejects.toMatchObject({ code: "npi_not_found" });
  });

  it("a practice that was not found is not remembered: once added elsewhere, the next lookup finds it", async () => {
    const npi = withNpiCheckDigit("777000002");
    await expect(gradeJsonForNpi(deps, npi)).rejects.toMatchObject({ code: "npi_not_found" });
    await nextTurn();
    // Adding a practice bumps no counter (nothing about it can be cached).
    await gradedPractice(otherDeps, accountId, npi);
    await nextTurn();
    expect((await lookup(npi)).npi).toBe(npi);
  });

  it("serves nothing from memory while the store has no counter (before migration 027)", async () => {
    const file = join(dir, "old.sqlite");
    const old = openStore({ engine: "sqlite", file });
    try {
      await old.migrate("026-audit-append-indexes");
      const oldDeps: ServiceDeps = { ...deps, store: old };
      const a = await accountWithKey(oldDeps, { plan: "professional" });
      const npi = withNpiCheckDigit("777000003");
      await gradedPractice(oldDeps, a.accountId, npi);
      await gradeJsonForNpi(oldDeps, npi);
      await nextTurn();
      expect(old.grades.get(npi)).toBeUndefined();
    } finally {
      await old.close();
    }
  });
});

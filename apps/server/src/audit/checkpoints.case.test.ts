import { chmodSync } from "node:fs";
import { join } from "node:path";
import { fromHex, openNote, parseCheckpoint, parseVerifierKey, RFC9162, verifyConsistency } from "@hcs/protocol";
import { afterAll, describe, expect, it } from "vitest";
import type { Store } from "../store/store.js";
import { appendAuditRun } from "../test-support/audit-events.js";
import { sharedTestLogKey, testLogKeys } from "../test-support/audit-log-keys.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { ExposedKeyFileError } from "../util/private-files.js";
import { createCheckpoint } from "./checkpoints.js";
import { LEGACY_LOG_KEY_FILE, logKeyFromPem, nodeEd25519Verify, readLegacyLogKeyFile } from "./log-key.js";
import { sequenceAuditLog } from "./sequencer.js";

async function grow(store: Store, from: number, count: number) {
  await appendAuditRun(store, from, count);
  while ((await sequenceAuditLog(store)).sequenced > 0);
}

describe("a data directory's key file from before the keys moved into the database", () => {
  it("is read as the key it holds, and refused when others can read it", () => {
    const { dataDir, key } = sharedTestLogKey();
    const pem = readLegacyLogKeyFile(dataDir)!;
    expect(logKeyFromPem(pem, "hcs.test/audit", 0).verifierKey).toBe(key.verifierKey);
    expect(parseVerifierKey(key.verifierKey)).toMatchObject({ name: "hcs.test/audit", keyHash: key.keyHash });
    chmodSync(join(dataDir, LEGACY_LOG_KEY_FILE), 0o644);
    expect(() => readLegacyLogKeyFile(dataDir)).toThrow(ExposedKeyFileError);
    expect(() => logKeyFromPem(pem, "has space", 0)).toThrow(/name/);
  });
});

forEachEngine((engine, open) => {
  describe(`audit checkpoints on ${engine}`, () => {
    const opened: OpenedStore[] = [];
    afterAll(async () => {
      for (const o of opened) {
        await o.store.close();
        await o.cleanup();
      }
    });

    it("sign the tree head as a C2SP checkpoint, each consistent with the one before, and only when the log grew", async () => {
      const o = await open();
      opened.push(o);
      const { store } = o;
      await store.migrate();
      const key = await testLogKeys(store);
      const verifier = parseVerifierKey(key.verifierKey)!;
      expect(await createCheckpoint(store, key, new Date()), "an empty log has nothing to attest").toBeNull();

      await grow(store, 0, 5);
      const first = (await createCheckpoint(store, key, new Date()))!;
      expect(first).toMatchObject({ size: 5, consistencyFrom: null, consistencyProof: [] });
      expect(await createCheckpoint(store, key, new Date())).toBeNull();

      await grow(store, 5, 6);
      const second = (await createCheckpoint(store, key, new Date()))!;
      expect(second).toMatchObject({ size: 11, consistencyFrom: 5 });

      // What a verifier does with nothing but the notes, the proof and the verifier key (the package's own SHA-256).
      const opened1 = openNote(first.note, verifier, nodeEd25519Verify);
      const opened2 = openNote(second.note, verifier, nodeEd25519Verify);
      if (!opened1.ok || !opened2.ok) throw new Error("a checkpoint did not open");
      const [c1, c2] = [parseCheckpoint(opened1.text)!, parseCheckpoint(opened2.text)!];
      expect([c1.origin, c1.size, c2.size]).toEqual(["hcs.test/audit", 5, 11]);
      const proof = second.consistencyProof.map((h) => fromHex(h)!);
      expect(verifyConsistency(RFC9162, c1.size, c2.size, proof, c1.rootHash, c2.rootHash)).toBe(true);
      expect(verifyConsistency(RFC9162, c1.size, c2.size, proof, c2.rootHash, c1.rootHash)).toBe(false);
      // An altered checkpoint no longer opens.
      expect(openNote(second.note.replace("\n11\n", "\n12\n"), verifier, nodeEd25519Verify)).toEqual({
        ok: false,
        reason: "bad_signature",
      });
      const stored = await store.db.selectFrom("audit_checkpoints").select(["size"]).orderBy("size").execute();
      expect(stored.map((r) => Number(r.size))).toEqual([5, 11]);
    });
  });
});

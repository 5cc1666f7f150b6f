import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatNote, parseVerifierKey, utf8Bytes } from "@hcs/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../secrets/master-key.js";
import { operatorAudit } from "../services/operator-audit.js";
import { openStore, type Store } from "../store/store.js";
import { appendAuditRun } from "../test-support/audit-events.js";
import { sharedTestLogKey } from "../test-support/audit-log-keys.js";
import { forEachEngine, type OpenedStore } from "../test-support/store-engines.js";
import { auditLogOrigin } from "./checkpoint-schedule.js";
import { createCheckpoint } from "./checkpoints.js";
import { handoverText } from "./key-handover.js";
import { type KeyRotation, rotateAuditLogKey } from "./key-rotation.js";
import { generateLogKeyPem, logKeyFromPem, nodeEd25519Verify } from "./log-key.js";
import { type AuditLogKeys, MasterKeyMismatchError, provisionAuditLogKeys } from "./log-keys.js";
import { sequenceAuditLog } from "./sequencer.js";
import { verifyAuditLog } from "./verify-log.js";

// One audit log for a deployment of several processes (docs/audit.md#checkpoints-and-the-log-key): every process on
// the database signs with one key under one origin, whatever its data directory or public URL, and a rotation is a
// handover a verifier can follow — or refuse, when it is forged.

const sharedMasterKey = randomBytes(32);
const now = new Date("2026-12-01T10:00:00.000Z");

/** A server's start on `store`: its data directory (its own, as on another machine) and its public URL. */
const start = (store: Store, o: { publicUrl: string; dataDir?: string; masterKey?: Buffer }) =>
  provisionAuditLogKeys(store, createSecretBox(o.masterKey ?? sharedMasterKey), {
    origin: auditLogOrigin(o.publicUrl),
    now,
    dataDir: o.dataDir ?? mkdtempSync(join(tmpdir(), "hcs-instance-")),
  });

async function grow(store: Store, from: number, count: number) {
  await appendAuditRun(store, from, count);
  while ((await sequenceAuditLog(store)).sequenced > 0);
}

const rotate = (store: Store, masterKey = sharedMasterKey) =>
  rotateAuditLogKey(store, createSecretBox(masterKey), {
    now,
    audit: operatorAudit<KeyRotation>(
      { operator: "ops", requestId: `rotate-${randomBytes(4).toString("hex")}`, now: () => now },
      "operator.audit.rotate-key",
      (r) => ({ accountId: null, resource: `audit-log-key:${r.epoch}` }),
    ),
  });

const verifierOf = (keys: AuditLogKeys | string) =>
  parseVerifierKey(typeof keys === "string" ? keys : keys.verifierKey)!;

forEachEngine((engine, open) => {
  describe(`one audit log for every process on ${engine}`, () => {
    const opened: OpenedStore[] = [];
    const others: Store[] = [];
    afterAll(async () => {
      for (const s of others) await s.close();
      for (const o of opened) {
        await o.store.close();
        await o.cleanup();
      }
    });
    /** A migrated store, and a second one on the same database as another process opens it. */
    async function database(): Promise<[Store, Store]> {
      const o = await open();
      opened.push(o);
      await o.store.migrate();
      const second = engine === "sqlite" ? openStore({ engine: "sqlite", file: o.store.file! }) : o.another();
      others.push(second);
      return [o.store, second];
    }

    it("two processes with their own data directories and URLs sign with one key, and verify with it", async () => {
      const [a, b] = await database();
      // Started together, as an orchestrator starts instances: both end up with the key stored first.
      const [keysA, keysB] = await Promise.all([
        start(a, { publicUrl: "https://hcs-a.example:8443" }),
        start(b, { publicUrl: "https://hcs-b.example:8443" }),
      ]);
      expect(keysB.verifierKey).toBe(keysA.verifierKey);
      expect(keysA.origin).toBe(keysB.origin);
      // Checkpoints signed by one process and then the other, as their schedules fall.
      await grow(a, 0, 7);
      expect(await createCheckpoint(a, keysA, now)).toMatchObject({ size: 7, keyEpoch: 0 });
      await grow(b, 7, 5);
      expect(await createCheckpoint(b, keysB, now)).toMatchObject({ size: 12, keyEpoch: 0 });
      expect(await createCheckpoint(a, keysA, now), "the size is signed once").toBeNull();
      await grow(a, 12, 3);
      expect(await createCheckpoint(a, keysA, now)).toMatchObject({ size: 15 });
      const v = await verifyAuditLog(b, verifierOf(keysB), nodeEd25519Verify);
      expect(v).toMatchObject({ ok: true, leaves: 15, checkpoints: 3, keys: 1, rotations: 0 });
    });

    it("keeps the origin it was created with when the public URL changes", async () => {
      const [store] = await database();
      const first = await start(store, { publicUrl: "https://old.example:8443" });
      await grow(store, 0, 4);
      await createCheckpoint(store, first, now);
      // Restarted under another public URL (and another data directory): the log keeps its name and key.
      const again = await start(store, { publicUrl: "https://new.example" });
      expect(again.origin).toBe("old.example:8443/audit");
      expect(again.verifierKey).toBe(first.verifierKey);
      await grow(store, 4, 4);
      await createCheckpoint(store, again, now);
      expect(await verifyAuditLog(store, verifierOf(again), nodeEd25519Verify)).toMatchObject({
        ok: true,
        checkpoints: 2,
        problems: [],
      });
    });

    it("refuses to start a process whose master key is not the one the log's key is sealed under", async () => {
      const [a, b] = await database();
      await start(a, { publicUrl: "https://hcs.example" });
      await expect(start(b, { publicUrl: "https://hcs.example", masterKey: randomBytes(32) })).rejects.toThrow(
        MasterKeyMismatchError,
      );
    });

    it("imports a data directory's key file as the log's first key, so checkpoints it signed stay verifiable", async () => {
      const [store] = await database();
      const legacy = sharedTestLogKey("hcs.example/audit");
      const keys = await start(store, { publicUrl: "https://hcs.example", dataDir: legacy.dataDir });
      expect(keys.verifierKey).toBe(legacy.key.verifierKey);
      rmSync(legacy.dataDir, { recursive: true, force: true });
    });

    it("rotates: the new key signs from the handover on, and either key verifies the whole log", async () => {
      const [a, b] = await database();
      const keysA = await start(a, { publicUrl: "https://hcs.example" });
      const keysB = await start(b, { publicUrl: "https://hcs.example" });
      const oldKey = keysA.verifierKey;
      await grow(a, 0, 6);
      await createCheckpoint(a, keysA, now);
      await grow(a, 6, 3);
      // Rotated by an operator (another process); A and B still hold the old key when they next sign.
      const rotation = await rotate(a);
      expect(rotation).toMatchObject({ previousEpoch: 0, epoch: 1, fromSize: 9, previousVerifierKey: oldKey });
      expect(keysA.verifierKey).toBe(oldKey);
      // Its audit event is the 10th leaf.
      await grow(b, 9, 4);
      expect(await createCheckpoint(b, keysB, now)).toMatchObject({ size: 14, keyEpoch: 1 });
      expect(keysB.verifierKey).toBe(rotation.verifierKey);
      await grow(a, 13, 2);
      expect(await createCheckpoint(a, keysA, now)).toMatchObject({ size: 16, keyEpoch: 1 });
      // A verifier trusting the old key follows the handover; one trusting only the new key too.
      for (const trusted of [oldKey, rotation.verifierKey]) {
        const v = await verifyAuditLog(a, verifierOf(trusted), nodeEd25519Verify);
        expect(v, JSON.stringify(v.problems)).toMatchObject({ ok: true, checkpoints: 3, keys: 2, rotations: 1 });
      }
      // The rotation is in the log itself, as the operator's change.
      const events = await a.db
        .selectFrom("audit_trail")
        .select(["action", "resource", "transport"])
        .where("action", "=", "operator.audit.rotate-key")
        .execute();
      expect(events).toEqual([{ action: "operator.audit.rotate-key", resource: "audit-log-key:1", transport: "cli" }]);
    });

    it("fails a forged rotation: a new key nobody with the old one handed over to", async () => {
      const [store] = await database();
      const keys = await start(store, { publicUrl: "https://hcs.example" });
      await grow(store, 0, 5);
      await createCheckpoint(store, keys, now);
      await grow(store, 5, 3);
      // Someone who can write to the database but holds neither the old key nor the master key adds a key of theirs,
      // its handover signed by it and by a second key of theirs posing as the old one, then signs a checkpoint.
      const origin = keys.origin;
      const forged = logKeyFromPem(generateLogKeyPem(), origin, 1);
      const posing = logKeyFromPem(generateLogKeyPem(), origin, 0);
      const state = await store.db.selectFrom("audit_log").select(["size", "root_hash"]).executeTakeFirstOrThrow();
      const text = handoverText(
        origin,
        Number(state.size),
        Buffer.from(state.root_hash, "hex"),
        keys.verifierKey,
        forged.verifierKey,
      );
      const sign = (k: typeof forged) => ({ name: k.name, keyHash: k.keyHash, signature: k.sign(utf8Bytes(text)) });
      await store.db
        .insertInto("audit_log_keys")
        .values({
          epoch: 1,
          verifier_key: forged.verifierKey,
          sealed_key: "v1.forged",
          from_size: Number(state.size),
          handover: formatNote(text, [sign(posing), sign(forged)]),
          created_at: now.toISOString(),
        })
        .execute();
      const body = `${origin}\n8\n${Buffer.from(state.root_hash, "hex").toString("base64")}\n`;
      await store.db
        .insertInto("audit_checkpoints")
        .values({
          size: 8,
          root_hash: state.root_hash,
          note: formatNote(body, [{ name: origin, keyHash: forged.keyHash, signature: forged.sign(utf8Bytes(body)) }]),
          consistency_from: 5,
          consistency_proof: "[]",
          created_at: now.toISOString(),
          key_epoch: 1,
        })
        .execute();
      const v = await verifyAuditLog(store, verifierOf(keys), nodeEd25519Verify);
      expect(v.ok).toBe(false);
      expect(v.problems.map((p) => [p.kind, p.index])).toEqual([
        ["key_rotation", 8],
        ["checkpoint_signature", 8],
      ]);
      expect(v.firstProblem?.message).toMatch(/not signed by the previous key/);
      // Nor does the forger's own key verify what the log's real key signed.
      const theirs = await verifyAuditLog(store, verifierOf(forged.verifierKey), nodeEd25519Verify);
      expect(theirs.problems.map((p) => p.kind)).toContain("checkpoint_signature");
      // A running server will not sign with a key it cannot open: its checkpoint fails, nothing is signed.
      await grow(store, 8, 1);
      await expect(createCheckpoint(store, keys, now)).rejects.toThrow(MasterKeyMismatchError);
    });

    it("fails a real handover whose stated head is not the log's", async () => {
      const [store] = await database();
      const keys = await start(store, { publicUrl: "https://hcs.example" });
      await grow(store, 0, 4);
      await createCheckpoint(store, keys, now);
      await rotate(store);
      await grow(store, 4, 2);
      await createCheckpoint(store, keys, now);
      // Rewriting the handover's head (or its size) breaks both keys' signatures.
      const row = await store.db
        .selectFrom("audit_log_keys")
        .select("handover")
        .where("epoch", "=", 1)
        .executeTakeFirstOrThrow();
      await store.db
        .updateTable("audit_log_keys")
        .set({ handover: row.handover!.replace("\n4\n", "\n3\n") })
        .where("epoch", "=", 1)
        .execute();
      const v = await verifyAuditLog(store, verifierOf(keys.current().verifierKey), nodeEd25519Verify);
      expect(v.firstProblem).toMatchObject({ kind: "key_rotation", index: 4 });
    });
  });
});

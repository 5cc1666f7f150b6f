import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type NoteVerifierKey, parseVerifierKey } from "@hcs/protocol";
import { generateLogKeyPem, LEGACY_LOG_KEY_FILE, type LogKey, logKeyFromPem } from "../audit/log-key.js";
import { type AuditLogKeys, provisionAuditLogKeys } from "../audit/log-keys.js";
import { createSecretBox, type SecretBox } from "../secrets/master-key.js";
import type { Store } from "../store/store.js";
import { writeFileAtomic } from "../util/files.js";

/** The origin test logs are given. */
export const TEST_LOG_ORIGIN = "hcs.test/audit";

/** A master key of its own for a test (what HCS_MASTER_KEY or master.key is to a server). */
export const testSecrets = (): SecretBox => createSecretBox(randomBytes(32));

/**
 * One log key for several test stores: a data directory holding it as the key file of a server from before the keys
 * moved into the database, which each store then imports as its first key (provisionAuditLogKeys).
 */
export function sharedTestLogKey(origin = TEST_LOG_ORIGIN): {
  dataDir: string;
  key: LogKey;
  verifier: NoteVerifierKey;
} {
  const dataDir = mkdtempSync(join(tmpdir(), "hcs-test-logkey-"));
  const pem = generateLogKeyPem();
  writeFileAtomic(join(dataDir, LEGACY_LOG_KEY_FILE), pem, 0o600);
  const key = logKeyFromPem(pem, origin, 0);
  return { dataDir, key, verifier: parseVerifierKey(key.verifierKey)! };
}

/** Each test store's own master key (the one its log key is sealed under), unless the test gives one. */
const storeSecrets = new WeakMap<Store, SecretBox>();

/**
 * The log keys of a migrated test store, provisioned as a server's start does (from `dataDir`'s key file if given);
 * again on the same store, the same keys.
 */
export function testLogKeys(
  store: Store,
  o: { dataDir?: string; origin?: string; secrets?: SecretBox } = {},
): Promise<AuditLogKeys> {
  let secrets = o.secrets ?? storeSecrets.get(store);
  if (!secrets) {
    secrets = testSecrets();
    storeSecrets.set(store, secrets);
  }
  return provisionAuditLogKeys(store, secrets, {
    origin: o.origin ?? TEST_LOG_ORIGIN,
    now: new Date(),
    ...(o.dataDir ? { dataDir: o.dataDir } : {}),
  });
}

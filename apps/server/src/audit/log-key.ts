import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Ed25519Verify, formatVerifierKey, isNoteKeyName, noteKeyHash } from "@hcs/protocol";
import { assertOwnerOnly } from "../util/private-files.js";

/** One of the log's Ed25519 signing keys: signs checkpoints as C2SP signed notes under the log's name. */
export interface LogKey {
  /** The key name in signatures: the log's origin. */
  readonly name: string;
  /** Which of the log's keys it is: 0 the first, then one more at each rotation (audit_log_keys). */
  readonly epoch: number;
  readonly keyHash: number;
  readonly publicKey: Uint8Array;
  /** `<name>+<hash>+<base64 key>`: what a verifier configures to trust this log's checkpoints. */
  readonly verifierKey: string;
  sign(message: Uint8Array): Uint8Array;
}

/**
 * The key file of a data directory from before the log's keys were kept in the database (migration 030): the first
 * server to start after the upgrade imports it as the log's first key, so the checkpoints it signed stay verifiable.
 */
export const LEGACY_LOG_KEY_FILE = "audit-log.key";

const rawPublicKey = (key: KeyObject) =>
  new Uint8Array(Buffer.from(createPublicKey(key).export({ format: "jwk" }).x!, "base64url"));

/** A new Ed25519 private key, PKCS#8 PEM. */
export function generateLogKeyPem(): string {
  return generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }) as string;
}

/** The log key held in `pem` (PKCS#8, Ed25519), signing under the log's name `name`. */
export function logKeyFromPem(pem: string, name: string, epoch: number): LogKey {
  if (!isNoteKeyName(name)) throw new Error(`the audit log's name must have no spaces or '+': ${JSON.stringify(name)}`);
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("the audit log's key must be an Ed25519 key");
  const publicKey = rawPublicKey(privateKey);
  return {
    name,
    epoch,
    keyHash: noteKeyHash(name, publicKey),
    publicKey,
    verifierKey: formatVerifierKey(name, publicKey),
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}

/**
 * The PEM of `<dataDir>/audit-log.key` when there is one (refused when group or others can read it, as the other
 * key files are), else null.
 */
export function readLegacyLogKeyFile(dataDir: string): string | null {
  const file = join(dataDir, LEGACY_LOG_KEY_FILE);
  if (!existsSync(file)) return null;
  assertOwnerOnly(file);
  return readFileSync(file, "utf8");
}

/** Ed25519 verification with Node's crypto, for opening signed notes. */
export const nodeEd25519Verify: Ed25519Verify = (publicKey, message, signature) => {
  try {
    const key = createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKey).toString("base64url") },
      format: "jwk",
    });
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
};

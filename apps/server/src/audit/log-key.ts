import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Ed25519Verify, formatVerifierKey, isNoteKeyName, noteKeyHash } from "@hcs/protocol";
import { writeFileAtomic } from "../util/files.js";
import { assertOwnerOnly } from "../util/private-files.js";

/** The log's Ed25519 signing key: signs checkpoints as C2SP signed notes under the log's name. */
export interface LogKey {
  /** The key name in signatures: the log's origin. */
  readonly name: string;
  readonly keyHash: number;
  readonly publicKey: Uint8Array;
  /** `<name>+<hash>+<base64 key>`: what a verifier configures to trust this log's checkpoints. */
  readonly verifierKey: string;
  sign(message: Uint8Array): Uint8Array;
}

export const LOG_KEY_FILE = "audit-log.key";

const rawPublicKey = (key: KeyObject) =>
  new Uint8Array(Buffer.from(createPublicKey(key).export({ format: "jwk" }).x!, "base64url"));

/**
 * Loads `<dataDir>/audit-log.key` (PKCS#8 PEM), creating it with mode 0600 on first use, and refusing it when group
 * or others can read it, as the other key files are. Losing it means later checkpoints are signed by a new key:
 * keep it with the backups (docs/audit.md).
 */
export function loadLogKey(dataDir: string, name: string): LogKey {
  if (!isNoteKeyName(name)) throw new Error(`the audit log's name must have no spaces or '+': ${JSON.stringify(name)}`);
  const file = join(dataDir, LOG_KEY_FILE);
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync("ed25519");
    writeFileAtomic(file, privateKey.export({ format: "pem", type: "pkcs8" }) as string, 0o600);
  }
  assertOwnerOnly(file);
  const privateKey = createPrivateKey(readFileSync(file, "utf8"));
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error(`${file} must hold an Ed25519 private key`);
  const publicKey = rawPublicKey(privateKey);
  return {
    name,
    keyHash: noteKeyHash(name, publicKey),
    publicKey,
    verifierKey: formatVerifierKey(name, publicKey),
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
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

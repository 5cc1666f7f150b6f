import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../util/files.js";
import { assertOwnerOnly } from "../util/private-files.js";

/**
 * Secrets the server must be able to use again (webhook signing secrets) are encrypted at rest with AES-256-GCM
 * under a master key: HCS_MASTER_KEY when set (the same value on every instance sharing a database), otherwise
 * `<dataDir>/master.key`, created on first start with mode 0600.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export function loadMasterKey(dataDir: string, hexFromEnv: string | null): Buffer {
  if (hexFromEnv) return Buffer.from(hexFromEnv, "hex");
  const file = join(dataDir, "master.key");
  if (!existsSync(file)) writeFileAtomic(file, randomBytes(32).toString("hex"), 0o600);
  assertOwnerOnly(file);
  const key = Buffer.from(readFileSync(file, "utf8").trim(), "hex");
  if (key.length !== 32) throw new Error(`${file} must hold 64 hex digits`);
  return key;
}

const VERSION = "v1";

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [
        VERSION,
        iv.toString("base64url"),
        cipher.getAuthTag().toString("base64url"),
        body.toString("base64url"),
      ].join(".");
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || body === undefined)
        throw new Error("sealed secret has an unknown format");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

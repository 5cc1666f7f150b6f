import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";

export interface AgentKeys {
  readonly privateKey: KeyObject;
  /** Raw 32-byte public key, base64url (what the server stores). */
  readonly publicKey: string;
}

/** A new Ed25519 identity; the private key never leaves this machine. */
export function generateAgentKeys(): AgentKeys {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return { privateKey, publicKey: (publicKey.export({ format: "jwk" }) as { x: string }).x };
}

export function privateKeyPem(keys: AgentKeys): string {
  return keys.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
}

export function keysFromPem(pem: string): AgentKeys {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new TypeError("the agent key is not an Ed25519 key");
  const jwk = privateKey.export({ format: "jwk" }) as { x: string };
  return { privateKey, publicKey: jwk.x };
}

/** Ed25519 signature of a UTF-8 message, base64url. */
export function signMessage(keys: AgentKeys, message: string): string {
  return sign(null, Buffer.from(message, "utf8"), keys.privateKey).toString("base64url");
}

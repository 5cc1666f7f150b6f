import { createHash, randomBytes } from "node:crypto";

/** A new bearer secret for a link or a cookie: 32 random bytes, base64url. */
export const newSecretToken = (): string => randomBytes(32).toString("base64url");

/** What is stored for a token: its SHA-256, hex (the token itself never is). */
export const tokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

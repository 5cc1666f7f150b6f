import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Password hashing with Node's scrypt (memory-hard; parameters in docs/security.md): N = 2^15, r = 8, p = 1, a
 * 16-byte random salt and a 32-byte key — 32 MiB and about 0.1 s per hash on one core. The parameters are stored with
 * each hash, so raising them later leaves existing hashes verifiable.
 */
export const SCRYPT_PARAMS = { log2N: 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

/** Passwords shorter than this are refused (NIST SP 800-63B §3.1.1.2: at least 8; we ask for 12). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer input is refused before hashing (a megabyte password must not cost a megabyte of scrypt input). */
export const MAX_PASSWORD_LENGTH = 256;

function scryptKey(password: string, salt: Buffer, log2N: number, r: number, p: number, len: number): Promise<Buffer> {
  const N = 2 ** log2N;
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly that for N = 2^15, r = 8, so allow twice.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, len, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** The stored form `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` (base64url) of a new password. */
export async function hashPassword(password: string): Promise<string> {
  const { log2N, r, p, keyLength, saltLength } = SCRYPT_PARAMS;
  const salt = randomBytes(saltLength);
  const key = await scryptKey(password, salt, log2N, r, p, keyLength);
  return ["scrypt", log2N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether `password` matches the stored hash (constant-time comparison; a malformed hash matches nothing). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [log2N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![log2N, r, p].every((n) => Number.isInteger(n) && n > 0) || log2N > 20) return false;
  const salt = Buffer.from(parts[4]!, "base64url");
  const expected = Buffer.from(parts[5]!, "base64url");
  if (expected.length < 16) return false;
  const key = await scryptKey(password, salt, log2N, r, p, expected.length);
  return timingSafeEqual(key, expected);
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (password.toLowerCase().includes(email.split("@")[0]!.toLowerCase()))
    return "Do not use your email name in the password.";
  return null;
}

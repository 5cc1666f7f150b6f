import { createHash, randomInt } from "node:crypto";

/** Ten codes of 10 characters from an alphabet without look-alikes (0/O, 1/I/L): about 48 bits each. */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** New recovery codes, shown once, grouped `XXXXX-XXXXX` for reading aloud. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** SHA-256 of a code typed in any case and grouping, or null when it cannot be a recovery code. */
export function recoveryCodeHash(typed: string): string | null {
  const code = typed.replace(/[\s-]+/g, "").toUpperCase();
  if (code.length !== 10 || [...code].some((c) => !ALPHABET.includes(c))) return null;
  return createHash("sha256").update(code).digest("hex");
}

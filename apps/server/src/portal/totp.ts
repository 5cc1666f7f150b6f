import { Secret, TOTP } from "otpauth";

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_S = 30;
/** One step either side is accepted (a phone clock a little off, a code typed as it changed). */
const WINDOW = 1;

function totpFor(secretBase32: string, label = "", issuer = "HCS"): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit TOTP secret (RFC 4226 recommends 160 bits), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app enrols from (shown as a QR code and as text). */
export const totpUri = (secretBase32: string, email: string): string => totpFor(secretBase32, email).toString();

/**
 * The time step a code is valid for at `now`, or null. A step at or before `lastStep` (a code already used) is
 * refused: a code seen over someone's shoulder cannot be replayed.
 */
export function acceptedTotpStep(
  secretBase32: string,
  code: string,
  now: Date,
  lastStep: number | null,
): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^[0-9]{6}$/.test(token)) return null;
  const delta = totpFor(secretBase32).validate({ token, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return null;
  const step = Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
  if (lastStep !== null && step <= lastStep) return null;
  return step;
}

/** The current code for a secret (tests compute what the user's app would show). */
export const totpCodeAt = (secretBase32: string, at: Date): string =>
  totpFor(secretBase32).generate({ timestamp: at.getTime() });

import { z } from "zod";

const NPI_MESSAGE = "npi must be 10 digits with a valid check digit";

// CMS: the NPI check digit is the Luhn digit of the 9-digit identifier prefixed with the
// card-issuer prefix 80840 (health applications), which is what makes NPIs valid card-style numbers.
const CMS_PREFIX = "80840";

/** Luhn check digit for a string of decimal digits (the digit to append, 0–9). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  // Walk from the right; the digit next to the (absent) check digit is doubled.
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Why a value is not an NPI; stable strings, safe to show to users. */
export type NpiProblem = "not_a_string" | "wrong_length" | "not_digits" | "bad_check_digit";

function npiProblem(value: unknown): NpiProblem | null {
  if (typeof value !== "string") return "not_a_string";
  if (value.length !== 10) return "wrong_length";
  if (!/^[0-9]{10}$/.test(value)) return "not_digits";
  if (luhnCheckDigit(CMS_PREFIX + value.slice(0, 9)) !== value.charCodeAt(9) - 48) return "bad_check_digit";
  return null;
}

/** zod schema for an NPI at any boundary (path parameter, body field). Whitespace is never trimmed. */
export const NpiSchema = z
  .string()
  .refine((v) => npiProblem(v) === null, { message: NPI_MESSAGE })
  .brand<"Npi">()
  .meta({ description: "10-digit National Provider Identifier with a valid CMS check digit", example: "1234567893" });

/** A National Provider Identifier that has passed the CMS check-digit rule. */
export type Npi = z.infer<typeof NpiSchema>;

export type NpiParseResult = { ok: true; npi: Npi } | { ok: false; problem: NpiProblem };

/** Validates an NPI without throwing, saying what is wrong. */
export function safeParseNpi(value: unknown): NpiParseResult {
  const problem = npiProblem(value);
  return problem === null ? { ok: true, npi: value as Npi } : { ok: false, problem };
}

/** True when `value` is a 10-digit string whose last digit is the CMS Luhn check digit. */
export function isValidNpi(value: unknown): value is Npi {
  return npiProblem(value) === null;
}

/** Error thrown by {@link parseNpi}; `code` is the wire error code. */
export class InvalidNpiError extends Error {
  readonly code = "invalid_npi" as const;
  constructor(readonly problem: NpiProblem) {
    super(NPI_MESSAGE);
    this.name = "InvalidNpiError";
  }
}

/** Returns the value as an {@link Npi} or throws {@link InvalidNpiError}. */
export function parseNpi(value: unknown): Npi {
  const problem = npiProblem(value);
  if (problem !== null) throw new InvalidNpiError(problem);
  return value as Npi;
}

/** Completes a 9-digit identifier with its check digit (for fixtures and sample data). */
export function withNpiCheckDigit(nineDigits: string): Npi {
  if (!/^[0-9]{9}$/.test(nineDigits)) throw new InvalidNpiError("wrong_length");
  return (nineDigits + String(luhnCheckDigit(CMS_PREFIX + nineDigits))) as Npi;
}

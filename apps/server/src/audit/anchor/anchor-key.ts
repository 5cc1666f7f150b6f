import { existsSync, readFileSync } from "node:fs";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { ConfigError } from "../../config.js";
import { assertOwnerOnly } from "../../util/private-files.js";

/**
 * The operator's anchoring account from an owner-only file holding its secp256k1 private key as 64 hex digits
 * (`0x` optional, surrounding whitespace ignored), refused when group or others can read it, as the other key files
 * are. Errors name the file and the variable, never what the file holds.
 */
export function loadAnchorAccount(file: string, variable = "HCS_ANCHOR_KEY_FILE"): PrivateKeyAccount {
  if (!existsSync(file)) throw new ConfigError(variable, `${file} does not exist`);
  assertOwnerOnly(file);
  const text = readFileSync(file, "utf8").trim();
  const hex = text.startsWith("0x") ? text.slice(2) : text;
  const invalid = new ConfigError(variable, `${file} must hold one secp256k1 private key: 64 hex digits, 0x optional`);
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw invalid;
  try {
    return privateKeyToAccount(`0x${hex}`);
  } catch {
    // Out of the curve's range (zero, or not below its order); the library's message may quote the key: not kept.
    throw invalid;
  }
}

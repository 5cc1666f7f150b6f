import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random base62 text (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new identifier such as `acct_9f2Kx…` (prefix says what it identifies). */
export function newId(prefix: string, length = 16): string {
  return `${prefix}_${randomBase62(length)}`;
}

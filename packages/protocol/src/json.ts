import { z } from "zod";

/** Any JSON value (what phase facts and finding evidence may hold). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const MAX_DEPTH = 32;

/** True for plain JSON: strings, finite numbers, booleans, null, arrays and plain objects of those, ≤ 32 deep. */
export function isJsonValue(value: unknown, depth = 0): value is JsonValue {
  if (depth > MAX_DEPTH) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isJsonValue(v, depth + 1));
  if (typeof value === "object") {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.values(value).every((v) => isJsonValue(v, depth + 1));
  }
  return false;
}

// A refined record rather than a recursive z.lazy union: the same validation, and schema generators (OpenAPI)
// can describe it without recursing forever.
export const JsonValueSchema = z.unknown().refine((v) => isJsonValue(v), {
  message: "must be plain JSON, at most 32 levels deep",
}) as unknown as z.ZodType<JsonValue, JsonValue>;

export const JsonObjectSchema = z.record(z.string(), z.unknown()).refine((v) => isJsonValue(v), {
  message: "must be a plain JSON object, at most 32 levels deep",
}) as unknown as z.ZodType<Record<string, JsonValue>, Record<string, JsonValue>>;
export type JsonObject = Record<string, JsonValue>;

/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, `undefined` members dropped.
 * Used wherever a hash must not depend on key order (reputation snapshot, audit events).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new TypeError("canonicalJson: non-finite number");
    if (value === undefined || typeof value === "function" || typeof value === "symbol") {
      throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
    }
    if (typeof value === "bigint") throw new TypeError("canonicalJson: bigint is not JSON");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

import type { ErrorCode } from "@hcs/protocol";
import type { z } from "zod";
import { ServiceError } from "../errors.js";
import { zodIssues } from "../util/parse-json.js";

/** The error an invalid field answers with: a code, and optionally its own message and details. */
export type FieldError =
  | ErrorCode
  | { readonly code: ErrorCode; readonly message?: string; readonly details?: Record<string, unknown> };

/**
 * Fields whose invalid value has an error code of its own, in order of precedence when several are invalid
 * (`scan_type` before `npi`, say). `npi` → `invalid_npi` applies to every operation after its own table.
 */
export type InputErrorCodes = Readonly<Record<string, FieldError>>;

const COMMON: InputErrorCodes = {
  npi: { code: "invalid_npi", message: "npi must be 10 digits with a valid check digit" },
};

/**
 * The typed error for input that does not match an operation's schema: the code of the first field (in the
 * operation's order of precedence) that is present and invalid, else `fallback` (invalid_body or invalid_query) —
 * a missing field is not an invalid one. Details carry every problem's path and message, never the value.
 */
export function inputError(
  error: z.ZodError,
  input: unknown,
  codes: InputErrorCodes = {},
  fallback: "invalid_body" | "invalid_query" = "invalid_body",
): ServiceError {
  const issues = zodIssues(error);
  const present = (field: string) =>
    typeof input === "object" && input !== null && (input as Record<string, unknown>)[field] !== undefined;
  const invalid = new Set(error.issues.map((i) => i.path[0]).filter((f): f is string => typeof f === "string"));
  for (const [field, spec] of [...Object.entries(codes), ...Object.entries(COMMON)]) {
    if (!invalid.has(field) || !present(field)) continue;
    const e = typeof spec === "string" ? { code: spec } : spec;
    const issue = error.issues.find((i) => i.path[0] === field)!;
    return new ServiceError(e.code, e.message ?? `${field}: ${issue.message}`, { issues, ...e.details });
  }
  const missing = [...invalid].filter((f) => !present(f));
  const message =
    missing.length > 0
      ? `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} required`
      : fallback === "invalid_query"
        ? "the query parameters do not match the schema"
        : "the input does not match the schema";
  return new ServiceError(fallback, message, { issues });
}

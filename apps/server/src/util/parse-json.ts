import type { z } from "zod";
import { ServiceError } from "../errors.js";
import { parseJsonBytes } from "./json-depth.js";

/** zod issues as client-facing details: where and what, never the offending value. */
export function zodIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.slice(0, 20).map((i) => ({ path: i.path.map(String).join(".") || "(root)", message: i.message }));
}

/**
 * Parses untrusted JSON bytes and validates them: invalid_json when they are not JSON (or nest too deep: see
 * json-depth.ts), invalid_body with the
 * issues when they do not match. `subject` and `schemaName` word the messages ("the request body", "the schema").
 */
export function parseJsonAs<S extends z.ZodType>(
  raw: Buffer,
  schema: S,
  subject = "the request body",
  schemaName = "the schema",
): z.output<S> {
  const value = parseJsonBytes(raw, subject);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ServiceError("invalid_body", `${subject} does not match ${schemaName}`, {
      issues: zodIssues(parsed.error),
    });
  }
  return parsed.data;
}

import type { ServiceError } from "../../errors.js";

/**
 * Why an operation refused a form's input, in one line: the first problem's field and message when the input did
 * not match the schema (the API's error carries every problem in `details.issues`), else the error's message.
 */
export function refusalReason(error: ServiceError): string {
  const issues = (error.details as { issues?: { path?: unknown; message?: unknown }[] } | undefined)?.issues;
  const first = Array.isArray(issues) ? issues[0] : undefined;
  if (first && typeof first.message === "string")
    return typeof first.path === "string" && first.path !== "(root)"
      ? `${first.path}: ${first.message}`
      : first.message;
  return error.message;
}

import { timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { readRawBody } from "../../http/body.js";
import type { HcsContext } from "../../http/state.js";
import { PortalError } from "../portal-errors.js";
import { csrfTokenFor } from "../sessions.js";

/** Forms are small: a body beyond this is refused before parsing. */
const MAX_FORM_BYTES = 64 * 1024;

/** Whether `presented` is the synchronizer token of the cookie token (constant-time). */
export function csrfMatches(cookieToken: string | null, presented: unknown): boolean {
  if (cookieToken === null || typeof presented !== "string") return false;
  const expected = Buffer.from(csrfTokenFor(cookieToken));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Reads a urlencoded form, checks its CSRF token against the cookie it must be bound to (403 csrf_failed otherwise)
 * and validates the rest with `schema` (400 invalid_input with the first problem's message).
 */
export async function readForm<S extends z.ZodType>(
  ctx: HcsContext,
  cookieToken: string | null,
  schema: S,
): Promise<z.infer<S>> {
  if (!ctx.is("application/x-www-form-urlencoded"))
    throw new PortalError("invalid_input", "Send the form as application/x-www-form-urlencoded.");
  const raw = await readRawBody(ctx, MAX_FORM_BYTES);
  const params = new URLSearchParams(raw.toString("utf8"));
  const fields: Record<string, string> = {};
  for (const [k, v] of params) fields[k] = v;
  if (!csrfMatches(cookieToken, fields._csrf))
    throw new PortalError(
      "csrf_failed",
      "This form has expired or did not come from this site. Reload the page and try again.",
    );
  delete fields._csrf;
  const parsed = schema.safeParse(fields);
  if (!parsed.success)
    throw new PortalError("invalid_input", parsed.error.issues[0]?.message ?? "The form is not valid.");
  return parsed.data;
}

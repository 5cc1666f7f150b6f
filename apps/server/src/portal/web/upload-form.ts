import { isServiceError } from "../../errors.js";
import { readRawBody } from "../../http/body.js";
import type { HcsContext } from "../../http/state.js";
import { PortalError } from "../portal-errors.js";
import { csrfMatches } from "./forms.js";

const MIB = 1024 * 1024;

/**
 * Reads a `multipart/form-data` form (a file input needs one), at most `limit` bytes: beyond, 413 with a page saying
 * how large a file may be, before anything is parsed. Node's own parser (the fetch `Request` of undici) splits the
 * parts; no request leaves the process. The CSRF token is checked as for every form (403 csrf_failed). Files come
 * back as their UTF-8 text, under their field's name.
 */
export async function readUploadForm(
  ctx: HcsContext,
  cookieToken: string | null,
  limit: number,
): Promise<Record<string, string>> {
  const type = ctx.get("Content-Type");
  if (!ctx.is("multipart/form-data"))
    throw new PortalError("invalid_input", "Send the form as multipart/form-data (a file upload).");
  const raw = await readRawBody(ctx, limit).catch((err: unknown) => {
    if (isServiceError(err) && err.code === "payload_too_large")
      throw new PortalError(
        "payload_too_large",
        `The upload is larger than ${limit / MIB} MiB. Split the roster into smaller files and upload each.`,
      );
    throw err;
  });
  let form: FormData;
  try {
    // The URL is never fetched: a Request is only the standard way to reach the multipart parser.
    form = await new Request("https://portal.invalid/upload", {
      method: "POST",
      headers: { "content-type": type },
      body: new Blob([new Uint8Array(raw)]),
    }).formData();
  } catch {
    throw new PortalError("invalid_input", "The upload could not be read as a form. Try again from the page.");
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of form) fields[name] = typeof value === "string" ? value : await value.text();
  if (!csrfMatches(cookieToken, fields._csrf))
    throw new PortalError(
      "csrf_failed",
      "This form has expired or did not come from this site. Reload the page and try again.",
    );
  delete fields._csrf;
  return fields;
}

import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { ServiceError } from "../errors.js";
import type { HcsContext } from "../http/state.js";

export const NpiParamsSchema = z.object({ npi: NpiSchema });

/** The 400 for an NPI wherever it arrives (path, query or body), worded as the protocol's NpiSchema words it. */
export function invalidNpi(): ServiceError {
  return new ServiceError("invalid_npi", "npi must be 10 digits with a valid check digit");
}

/** The validated `:npi` path parameter, or 400 invalid_npi. */
export function npiParam(ctx: HcsContext): string {
  const raw = (ctx as unknown as { params?: Record<string, string> }).params?.npi;
  const parsed = NpiSchema.safeParse(raw);
  if (!parsed.success) throw invalidNpi();
  return parsed.data;
}

/** A validated path parameter by name (strings only; the schema refines). */
export function pathParam<S extends z.ZodType>(
  ctx: HcsContext,
  name: string,
  schema: S,
  code: "job_not_found" | "not_found",
): z.output<S> {
  const raw = (ctx as unknown as { params?: Record<string, string> }).params?.[name];
  const parsed = schema.safeParse(raw);
  // A malformed id names nothing that exists: answer as for an unknown one.
  if (!parsed.success) throw new ServiceError(code, `no such ${name.replace(/_id$/, "")}: ${raw ?? ""}`.trim());
  return parsed.data;
}

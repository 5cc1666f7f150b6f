import type { ErrorCode } from "@hcs/protocol";
import type { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import type { HcsContext } from "../http/state.js";

/**
 * A public document or operator endpoint served over HTTP only (the agent card, the OpenAPI document, health,
 * readiness, metrics): no credentials, no limits, nothing to invoke. Everything a caller can *do* is an Operation.
 */
export interface PublicRoute {
  readonly path: string;
  readonly id: string;
  readonly summary: string;
  readonly description?: string;
  readonly response: { readonly description: string; readonly schema?: z.ZodType; readonly contentType?: string };
  /** Errors it may answer instead (with the error body), for the OpenAPI document. */
  readonly errors?: readonly ErrorCode[];
  /** Left out of the OpenAPI document (operator endpoints). */
  readonly internal?: boolean;
  handler(ctx: HcsContext, deps: AppDeps): Promise<void>;
}

/** Keeps literal route declarations typed. */
export function definePublicRoute(def: PublicRoute): PublicRoute {
  return def;
}

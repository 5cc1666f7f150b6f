import type { ErrorCode, MeteredOperation } from "@hcs/protocol";
import type { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import type { HcsContext } from "../http/state.js";

/** Which pipeline a route runs behind. */
export type RouteGroup = "public" | "a" | "b" | "b-open";

/**
 * One HTTP operation, declared once: the router mounts it and the OpenAPI document is generated from the same
 * declaration, so the document always lists exactly the routes that exist.
 */
export interface RouteDef {
  readonly method: "get" | "post";
  /** Koa path pattern, e.g. `/v1/a2a/grade/:npi`. */
  readonly path: string;
  readonly group: RouteGroup;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly params?: z.ZodObject;
  readonly body?: z.ZodType;
  /** Successful responses: status → description and schema (omit schema for non-JSON bodies). */
  readonly responses: Readonly<Record<number, { description: string; schema?: z.ZodType; contentType?: string }>>;
  /** Error codes this route can answer with (documented in OpenAPI with the error body). */
  readonly errors: readonly ErrorCode[];
  /** Credits charged on success, if metered. */
  readonly price?: MeteredOperation;
  /** Hidden from the OpenAPI document (operator endpoints). */
  readonly internal?: boolean;
  handler(ctx: HcsContext, deps: AppDeps): Promise<void>;
}

/** Keeps literal route declarations typed. */
export function defineRoute(def: RouteDef): RouteDef {
  return def;
}

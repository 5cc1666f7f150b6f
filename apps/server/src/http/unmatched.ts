import type Router from "@koa/router";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { ServiceError } from "../errors.js";
import { invoke } from "../operations/invoke.js";
import { bindOperation, declareOperation, type Operation, type OperationGroup } from "../operations/operation.js";
import { credentialsOf } from "./credentials.js";
import { errorBody } from "./error-body.js";
import { requestGuard, writeRest } from "./rest-binding.js";
import type { HcsContext, HcsMiddleware, HcsState } from "./state.js";

const isGroupB = (path: string) => path === "/v1/a2a" || path.startsWith("/v1/a2a/");
const isGroupA = (path: string) => !isGroupB(path) && (path === "/v1" || path.startsWith("/v1/"));

/** The answer to a path no route serves, as an operation of the group the path belongs to (so it is counted). */
function fallback(group: OperationGroup, readOnly: boolean): Operation {
  const declaration = declareOperation({
    id: "unmatchedPath",
    group,
    access: { rule: "anyone" },
    example: { error: new ServiceError("not_found", "no such resource") },
    summary: "A path or method no operation serves",
    description: "Answers 404 not_found or 405 method_not_allowed.",
    input: z.object({ error: z.instanceof(ServiceError) }),
    output: z.never(),
    errors: ["not_found", "method_not_allowed"],
    readOnly,
    openWorld: false,
  });
  return bindOperation(declaration, async ({ error }) => {
    throw error;
  });
}

/**
 * After the router: a request no route served gets 404 not_found, or 405 method_not_allowed with `Allow` when the
 * path exists for other methods. Under /v1/a2a and /v1 it is answered through the group's pipeline — counted (per
 * key, or per client address), audited when a key was presented, and carrying the rate-limit headers every Group B
 * response carries.
 */
export function unmatchedRequests(deps: AppDeps, router: Router<HcsState>): HcsMiddleware {
  const ops = {
    b: { read: fallback("b-open", true), write: fallback("b-open", false) },
    a: { read: fallback("a-open", true), write: fallback("a-open", false) },
  };
  return async (ctx: HcsContext, next) => {
    await next();
    if (ctx.body != null || ctx.status !== 404) return;
    const layers = router.match(ctx.path, ctx.method).path;
    const allow = [...new Set(layers.flatMap((l) => l.methods))];
    const error =
      allow.length > 0
        ? new ServiceError("method_not_allowed", `${ctx.method} is not allowed on ${ctx.path}`)
        : new ServiceError("not_found", `no such resource: ${ctx.method} ${ctx.path}`);
    if (allow.length > 0) ctx.set("Allow", allow.join(", "));
    const group = isGroupB(ctx.path) ? "b" : isGroupA(ctx.path) ? "a" : null;
    if (!group) {
      requestGuard(ctx);
      ctx.status = error.code === "method_not_allowed" ? 405 : 404;
      ctx.body = errorBody(error.code, error.message, ctx.state.requestId);
      return;
    }
    const operation = ops[group][ctx.method === "GET" || ctx.method === "HEAD" ? "read" : "write"];
    const credentials = await credentialsOf(deps, ctx, group === "b" ? "x-api-key" : "bearer");
    ctx.state.caller = credentials.caller;
    const result = await invoke(deps, {
      operation,
      credentials,
      transport: "rest",
      requestId: ctx.state.requestId,
      clientIp: ctx.state.clientIp,
      guard: () => requestGuard(ctx),
      input: () => ({ error }),
    });
    writeRest(ctx, operation, result);
  };
}

import { MAX_REQUEST_BYTES } from "@hcs/protocol";
import type { z } from "zod";
import { ServiceError } from "../errors.js";
import { parseJsonAs } from "../util/parse-json.js";
import type { HcsContext, HcsMiddleware } from "./state.js";

/** Refuses bodies announced larger than the limit before reading a byte (spec §8: 10 MB). */
export function bodyLimit(limit = MAX_REQUEST_BYTES): HcsMiddleware {
  return async (ctx, next) => {
    const length = Number(ctx.get("Content-Length") || 0);
    if (length > limit) {
      // The unread body would otherwise be drained or reset; close the connection after answering.
      ctx.set("Connection", "close");
      throw new ServiceError("payload_too_large", `request body exceeds ${limit} bytes`, { limit_bytes: limit });
    }
    await next();
  };
}

/** Reads the raw body (at most `limit` bytes, 413 beyond), once per request. */
export async function readRawBody(ctx: HcsContext, limit = MAX_REQUEST_BYTES): Promise<Buffer> {
  if (ctx.state.rawBody) return ctx.state.rawBody;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.set("Connection", "close");
      throw new ServiceError("payload_too_large", `request body exceeds ${limit} bytes`, { limit_bytes: limit });
    }
    chunks.push(chunk);
  }
  ctx.state.rawBody = Buffer.concat(chunks);
  return ctx.state.rawBody;
}

/** Reads a JSON body and validates it: 415 unless application/json, 400 invalid_json, 400 invalid_body with issues. */
export async function readJson<S extends z.ZodType>(
  ctx: HcsContext,
  schema: S,
  options: { limit?: number } = {},
): Promise<z.output<S>> {
  if (!ctx.is("application/json")) {
    throw new ServiceError("unsupported_media_type", "send the body as JSON with Content-Type: application/json");
  }
  return parseJsonAs(await readRawBody(ctx, options.limit), schema);
}

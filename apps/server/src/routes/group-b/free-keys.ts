import { FreeKeyRequestSchema, IssuedKeySchema } from "@hcs/protocol";
import { readJson } from "../../http/body.js";
import { anonymousBucketOf } from "../../http/client-address.js";
import { countRequest, rateLimitedError } from "../../http/rate-limit.js";
import { issueFreeKey } from "../../services/free-keys.js";
import { defineRoute } from "../route.js";

/** Free keys one client IP may obtain per hour (on top of the Group B per-minute limit). */
export const FREE_KEYS_PER_IP_PER_HOUR = 5;
const HOUR = 3_600_000;

export const freeKeyRoute = defineRoute({
  method: "post",
  path: "/v1/a2a/keys",
  group: "b-open",
  operationId: "createFreeKey",
  summary: "Get a free-tier API key (500 credits) instantly",
  description: `No credentials needed. Limited to ${FREE_KEYS_PER_IP_PER_HOUR} keys per client IP per hour. The key is shown only in this response.`,
  body: FreeKeyRequestSchema,
  responses: { 201: { description: "The new key and its account", schema: IssuedKeySchema } },
  errors: ["invalid_json", "invalid_body", "unsupported_media_type", "payload_too_large", "rate_limited"],
  async handler(ctx, deps) {
    const request = await readJson(ctx, FreeKeyRequestSchema);
    const windows = await countRequest(deps, {
      bucket: `freekey:ip:${anonymousBucketOf(ctx.state.clientIp)}`,
      windows: [{ limit: FREE_KEYS_PER_IP_PER_HOUR, windowMs: HOUR }],
    });
    const limited = rateLimitedError(
      windows,
      deps.now().getTime(),
      `at most ${FREE_KEYS_PER_IP_PER_HOUR} free keys per client address per hour`,
    );
    if (limited) {
      ctx.set("Retry-After", String(limited.retryAfter));
      throw limited.error;
    }
    const key = await issueFreeKey(deps, request);
    ctx.state.auditResource = `account:${key.account_id}`;
    ctx.status = 201;
    ctx.set("Cache-Control", "no-store");
    ctx.body = key;
  },
});

import { FreeKeyRequestSchema, IssuedKeySchema } from "@hcs/protocol";
import { ServiceError } from "../../errors.js";
import { readJson } from "../../http/body.js";
import { countRequest } from "../../http/rate-limit.js";
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
    const [issued] = await countRequest(deps, {
      bucket: `freekey:ip:${ctx.ip}`,
      windows: [{ limit: FREE_KEYS_PER_IP_PER_HOUR, windowMs: HOUR }],
    });
    if (issued && issued.count > issued.limit) {
      const retryAfter = Math.max(1, Math.ceil((issued.resetAtMs - deps.now().getTime()) / 1000));
      ctx.set("Retry-After", String(retryAfter));
      throw new ServiceError(
        "rate_limited",
        `at most ${FREE_KEYS_PER_IP_PER_HOUR} free keys per client address per hour`,
        {
          limit: FREE_KEYS_PER_IP_PER_HOUR,
          retry_after_seconds: retryAfter,
        },
      );
    }
    const key = await issueFreeKey(deps, request);
    ctx.state.auditResource = `account:${key.account_id}`;
    ctx.status = 201;
    ctx.set("Cache-Control", "no-store");
    ctx.body = key;
  },
});

import { FreeKeyRequestSchema, IssuedKeySchema } from "@hcs/protocol";
import { anonymousBucketOf } from "../../http/client-address.js";
import { countRequest, rateLimitedError } from "../../http/rate-limit.js";
import { defineOperation } from "../../operations/operation.js";
import { issueFreeKey } from "../../services/free-keys.js";

/** Free keys one client address may obtain per hour (on top of the Group B per-minute limit). */
export const FREE_KEYS_PER_IP_PER_HOUR = 5;
const HOUR = 3_600_000;

export const freeKeyOperation = defineOperation({
  id: "createFreeKey",
  group: "b-open",
  access: { rule: "credential", credential: "none" },
  example: { email: "it@riverside-family.example", organization: "Riverside Family Medicine" },
  summary: "Get a free-tier API key (500 credits) instantly",
  description: `No credentials needed. Limited to ${FREE_KEYS_PER_IP_PER_HOUR} keys per client address per hour. The key is shown only in this response.`,
  input: FreeKeyRequestSchema,
  output: IssuedKeySchema,
  errors: ["invalid_body", "unsupported_media_type", "payload_too_large", "rate_limited"],
  readOnly: false,
  openWorld: false,
  implemented: true,
  rest: { method: "post", path: "/v1/a2a/keys", status: 201, headers: { "Cache-Control": "no-store" } },
  async run(input, call) {
    const windows = await countRequest(call.deps, {
      bucket: `freekey:ip:${anonymousBucketOf(call.clientIp)}`,
      windows: [{ limit: FREE_KEYS_PER_IP_PER_HOUR, windowMs: HOUR }],
    });
    const limited = rateLimitedError(
      windows,
      call.deps.now().getTime(),
      `at most ${FREE_KEYS_PER_IP_PER_HOUR} free keys per client address per hour`,
    );
    if (limited) throw limited.error;
    const key = await issueFreeKey(call.deps, input);
    call.setResource(`account:${key.account_id}`);
    return key;
  },
});

import { FreeKeyRequestSchema, IssuedKeySchema } from "@hcs/protocol";
import { declareOperation } from "../../operations/operation.js";

/** Free keys one client address may obtain per hour (on top of the Group B per-minute limit). */
export const FREE_KEYS_PER_IP_PER_HOUR = 5;

export const freeKeyDeclaration = declareOperation({
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
  rest: { method: "post", path: "/v1/a2a/keys", status: 201, headers: { "Cache-Control": "no-store" } },
});

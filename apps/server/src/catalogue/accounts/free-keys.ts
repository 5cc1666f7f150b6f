import { countRequest, rateLimitedError } from "../../accounting/index.js";
import { anonymousBucketOf } from "../../net/address-bucket.js";
import { bindOperation } from "../../operations/operation.js";
import { issueFreeKey } from "../../services/free-keys.js";
import { FREE_KEYS_PER_IP_PER_HOUR, freeKeyDeclaration } from "./free-keys.declaration.js";

const HOUR = 3_600_000;

export const freeKeyOperation = bindOperation(freeKeyDeclaration, async (input, call) => {
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
});

import { ReputationSnapshotSchema } from "@hcs/protocol";
import { z } from "zod";
import type { AppDeps } from "../../app-deps.js";
import { defineOperation } from "../../operations/operation.js";
import { computeReputation } from "../../services/reputation.js";
import { ttlMemo } from "../../util/ttl-memo.js";

const REPUTATION_TTL_MS = 10_000;
const caches = new WeakMap<AppDeps, () => Promise<z.output<typeof ReputationSnapshotSchema>>>();

/** The snapshot, computed at most every 10 seconds per process (it counts tables; every caller may ask). */
function cachedReputation(deps: AppDeps) {
  let cached = caches.get(deps);
  if (!cached) {
    cached = ttlMemo(
      REPUTATION_TTL_MS,
      () => computeReputation(deps, { uptimeSeconds: deps.uptimeSeconds }),
      () => deps.now().getTime(),
    );
    caches.set(deps, cached);
  }
  return cached();
}

export const reputationOperation = defineOperation({
  id: "getReputation",
  method: "hipaa.reputation",
  group: "public",
  access: { rule: "anyone" },
  example: {},
  summary: "Public reputation snapshot with a SHA-256 integrity hash",
  description:
    "Totals computed from the service's store and process (scans, practices, findings, breaches tracked, documents " +
    "generated, average response time, uptime), cached for 10 seconds. `sha256` is the SHA-256 of the canonical JSON " +
    "(sorted keys) of the other fields. Free.",
  input: z.strictObject({}),
  output: ReputationSnapshotSchema,
  errors: [],
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: { method: "get", path: "/api/reputation", headers: { "Cache-Control": "public, max-age=10" } },
  async run(_input, call) {
    return cachedReputation(call.deps);
  },
});

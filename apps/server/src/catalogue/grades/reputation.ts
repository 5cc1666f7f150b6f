import type { ReputationSnapshotSchema } from "@hcs/protocol";
import type { z } from "zod";
import type { AppDeps } from "../../app-deps.js";
import { bindOperation } from "../../operations/operation.js";
import { computeReputation } from "../../services/reputation.js";
import { ttlMemo } from "../../util/ttl-memo.js";
import { reputationDeclaration } from "./reputation.declaration.js";

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

export const reputationOperation = bindOperation(reputationDeclaration, async (_input, call) => {
  return cachedReputation(call.deps);
});

import { isServiceError, ServiceError } from "../errors.js";
import type { Credentials } from "../operations/invoke.js";
import { authenticateApiKey } from "../services/api-keys.js";
import type { ServiceDeps } from "../services/deps.js";
import type { HcsContext } from "./state.js";

/**
 * Where a transport looks for the key: Group B's `X-API-Key`, Group A's `Authorization: Bearer`, or either (the
 * agent protocol endpoints /api/a2a and /mcp take both, as agent frameworks send one or the other).
 */
export type KeyHeader = "x-api-key" | "bearer" | "either";

const NONE: Credentials = { caller: null, refused: null };

function bearerOf(ctx: HcsContext): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get("Authorization"));
  return m ? m[1]! : null;
}

const MISSING: Record<KeyHeader, string> = {
  "x-api-key": "send your API key in the X-API-Key header",
  bearer: "send your API key as Authorization: Bearer <key>",
  either: "send your API key in the X-API-Key header or as Authorization: Bearer <key>",
};

/**
 * The key a request presents, resolved without refusing yet: the call is counted against the rate limit first
 * (per client address when there is no valid key), then refused if its operation needs a key.
 */
export async function credentialsOf(deps: ServiceDeps, ctx: HcsContext, header: KeyHeader): Promise<Credentials> {
  const presented =
    header === "x-api-key"
      ? ctx.get("X-API-Key") || null
      : header === "bearer"
        ? bearerOf(ctx)
        : ctx.get("X-API-Key") || bearerOf(ctx);
  if (!presented) return { caller: null, refused: new ServiceError("missing_credentials", MISSING[header]) };
  return credentialsForKey(deps, presented);
}

/** A presented key's credentials: its caller, or why it was refused (invalid_credentials, key_revoked). */
export async function credentialsForKey(deps: ServiceDeps, presented: string): Promise<Credentials> {
  try {
    return { caller: await authenticateApiKey(deps, presented), refused: null };
  } catch (err) {
    if (!isServiceError(err)) throw err;
    return { caller: null, refused: err };
  }
}

/** No credentials looked at (public documents). */
export const NO_CREDENTIALS = NONE;

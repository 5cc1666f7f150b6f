import type { Plan, Tier } from "@hcs/protocol";

/**
 * Who a call is made for: an API key, or — for a change made in the customer portal (docs/portal.md, "Credits") —
 * a signed-in person of the account, who holds no key. A portal caller has `keyId` null and `portalUserId` set, so
 * its audit event keeps `key_id` null and names the person as `actor.operator` = `user:<id>`, as every portal
 * event does; its rate limits are counted per person (`user:<id>`) as an API caller's are per key.
 */
export interface Caller {
  /** The API key the call came with; null for a portal caller. */
  readonly keyId: string | null;
  /** The portal user who made a key-less call; absent for calls made with a key. */
  readonly portalUserId?: string;
  readonly accountId: string;
  readonly plan: Plan;
  readonly tier: Tier;
}

import type { SecretBox } from "../secrets/master-key.js";
import type { Store } from "../store/store.js";

/** What every service function receives: the store, the clock and the secret box (no globals). */
export interface ServiceDeps {
  readonly store: Store;
  readonly now: () => Date;
  readonly secrets: SecretBox;
}

/** An instant (a Date or epoch milliseconds) as the ISO-8601 UTC text every table and wire shape uses. */
export const iso = (at: Date | number): string => (typeof at === "number" ? new Date(at) : at).toISOString();

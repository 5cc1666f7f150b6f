import type { SecretBox } from "../secrets/master-key.js";
import type { Store } from "../store/store.js";

/** What every service function receives: the store, the clock and the secret box (no globals). */
export interface ServiceDeps {
  readonly store: Store;
  readonly now: () => Date;
  readonly secrets: SecretBox;
}

export const iso = (d: Date): string => d.toISOString();

import type { Transaction } from "kysely";
import type { Database } from "../../store/schema.js";
import { iso } from "../deps.js";
import { regradeIn } from "../grades.js";
import { reevaluateAllHosts } from "./host-intel.js";
import { reevaluateAllSites } from "./site-intel.js";

/** What a re-evaluation after a feed import did. */
export interface Reevaluation {
  readonly hosts: number;
  readonly sites: number;
}

/**
 * After a KEV or end-of-life import, in the import's transaction (so the data and the verdicts built on it change
 * together): every scanner host's server-derived findings are recomputed, after a KEV import also every public
 * site's KEV findings; each practice with a re-evaluated scanner host, or whose site's KEV findings changed, is
 * regraded once, at the import's time.
 */
export async function reevaluateAfterImport(
  trx: Transaction<Database>,
  now: Date,
  feed: "kev" | "eol",
): Promise<Reevaluation> {
  const practices = new Set<string>();
  const hosts = await reevaluateAllHosts(trx, now, practices);
  const sites = feed === "kev" ? await reevaluateAllSites(trx, now, practices) : 0;
  const at = iso(now);
  for (const npi of practices) await regradeIn(trx, npi, at);
  return { hosts, sites };
}

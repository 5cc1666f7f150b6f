import type { ThreatReport } from "@hcs/protocol";
import type { Executor } from "../../store/hot-sql.js";

/** The entity type of the practices this service grades, in the portal's words. */
export const PRACTICE_ENTITY_TYPE = "Healthcare Provider";
const WINDOW_MONTHS = 24;
const TOP = 5;

/**
 * The most common breach types and locations reported for an entity type (and state, when known) over the 24
 * months ending at the newest report the service holds — the portal's own "last 24 months" view, which ends today
 * when the feed is fresh and says so through `to` when it is not.
 */
export async function sectorSummary(
  db: Executor,
  entityType: string,
  state: string | null,
): Promise<ThreatReport["sector"]> {
  const newest = await db
    .selectFrom("hhs_breaches")
    .select((e) => e.fn.max("submitted_on").as("d"))
    .executeTakeFirst();
  const to = (newest?.d as string | null | undefined) ?? null;
  if (!to)
    return { entity_type: entityType, state, from: null, to: null, breaches: 0, breach_types: [], locations: [] };
  const end = new Date(`${to}T00:00:00Z`);
  end.setUTCMonth(end.getUTCMonth() - WINDOW_MONTHS);
  const from = end.toISOString().slice(0, 10);
  let q = db
    .selectFrom("hhs_breaches")
    .select(["breach_types", "locations"])
    .where("entity_type", "=", entityType)
    .where("submitted_on", ">", from)
    .where("submitted_on", "<=", to);
  if (state) q = q.where("state", "=", state);
  const rows = await q.execute();
  const tally = (lists: string[][]) => {
    const counts = new Map<string, number>();
    for (const list of lists) for (const name of list) counts.set(name, (counts.get(name) ?? 0) + 1);
    return [...counts]
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
      .slice(0, TOP);
  };
  return {
    entity_type: entityType,
    state,
    from,
    to,
    breaches: rows.length,
    breach_types: tally(rows.map((r) => JSON.parse(r.breach_types) as string[])),
    locations: tally(rows.map((r) => JSON.parse(r.locations) as string[])),
  };
}

import type { Executor } from "../../store/hot-sql.js";
import type { ServiceDeps } from "../deps.js";
import { FEEDS, type FeedName } from "./feed-source.js";

/** A feed's state for operators and /readyz: its latest import that changed data, and how old its data is. */
export interface FeedState {
  readonly feed: FeedName;
  readonly imported: boolean;
  readonly version: string | null;
  readonly source: string | null;
  readonly records: number;
  readonly imported_at: string | null;
  /** Whole days since the data's own date (KEV dateReleased, the newest breach submission, the import). */
  readonly age_days: number | null;
  /** One line for a person: "KEV catalogue 2025.08.25, 41 days old". */
  readonly summary: string;
}

const LABEL: Readonly<Record<FeedName, string>> = {
  hhs_breaches: "HHS OCR breach data",
  kev: "KEV catalogue",
  eol: "end-of-life data",
};

const DAY_MS = 86_400_000;

/** Every feed's state, read through `db`. */
export async function feedStates(db: Executor, now: Date): Promise<FeedState[]> {
  const rows = await db
    .selectFrom("feed_imports")
    .selectAll()
    .where("id", "in", (eb) =>
      eb
        .selectFrom("feed_imports")
        .select((e) => e.fn.max("id").as("id"))
        .where("changed", "=", 1)
        .groupBy("feed"),
    )
    .execute();
  const counts = await Promise.all([
    db
      .selectFrom("hhs_breaches")
      .select((e) => [e.fn.countAll<number>().as("n"), e.fn.max("submitted_on").as("newest")])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("kev_entries")
      .select((e) => e.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("eol_products")
      .select((e) => e.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const records: Record<FeedName, number> = {
    hhs_breaches: Number(counts[0].n),
    kev: Number(counts[1].n),
    eol: Number(counts[2].n),
  };
  return FEEDS.map((feed) => {
    const row = rows.find((r) => r.feed === feed);
    if (!row)
      return {
        feed,
        imported: false,
        version: null,
        source: null,
        records: 0,
        imported_at: null,
        age_days: null,
        summary: `${LABEL[feed]} not imported`,
      };
    const detail = JSON.parse(row.detail) as { date_released?: string };
    // The data's own date where it has one: KEV's release, the newest breach report held (imports merge, so an
    // older archive imported last does not make the data older); else the import time.
    const newestBreach = (counts[0].newest as string | null) ?? row.version;
    const version = feed === "hhs_breaches" ? newestBreach : row.version;
    const dated = feed === "kev" ? detail.date_released : feed === "hhs_breaches" ? newestBreach : row.imported_at;
    const t = Date.parse(dated ?? row.imported_at);
    const age = Number.isFinite(t) ? Math.max(0, Math.floor((now.getTime() - t) / DAY_MS)) : null;
    const what = feed === "eol" ? `${records.eol} products` : version;
    return {
      feed,
      imported: true,
      version,
      source: row.source,
      records: records[feed],
      imported_at: row.imported_at,
      age_days: age,
      summary: `${LABEL[feed]} ${what}, ${age ?? "?"} day${age === 1 ? "" : "s"} old`,
    };
  });
}

/** {@link feedStates} for the operator's `data status`. */
export function feedStatus(deps: ServiceDeps): Promise<FeedState[]> {
  return feedStates(deps.store.db, deps.now());
}

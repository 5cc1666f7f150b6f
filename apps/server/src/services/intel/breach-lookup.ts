import type { BreachCheck } from "@hcs/protocol";
import { matchEntityName } from "../../intel/breach-match.js";
import { entityNameKeys } from "../../intel/entity-names.js";
import type { Executor } from "../../store/hot-sql.js";
import type { HhsBreachesTable } from "../../store/schema.js";
import { ttlMemo } from "../../util/ttl-memo.js";
import type { ServiceDeps } from "../deps.js";
import { getPractice } from "../practices.js";
import { publicFeedSource } from "./public-feed-source.js";

/** When the practice's state is not known, a same-name record anywhere counts, with its confidence scaled down. */
const OTHER_STATE_FACTOR = 0.6;
const MAX_MATCHES = 50;

export type BreachMatch = BreachCheck["matches"][number];

function recordView(r: HhsBreachesTable): BreachMatch["record"] {
  return {
    entity_name: r.entity_name,
    state: r.state,
    entity_type: r.entity_type,
    individuals_affected: r.individuals_affected,
    submitted_on: r.submitted_on,
    breach_types: JSON.parse(r.breach_types) as string[],
    locations: JSON.parse(r.locations) as string[],
    business_associate_present: r.business_associate === null ? null : r.business_associate === 1,
    description: r.description,
  };
}

/**
 * HHS OCR breach reports filed under `name` (legal suffixes, d/b/a names, punctuation and case folded) in `state`,
 * most confident and newest first. With no state, every state's reports are searched at reduced confidence.
 * This is the breach history other operations reuse (hipaa.vendor_risk: a vendor's name and state).
 */
export async function breachHistory(db: Executor, name: string, state: string | null): Promise<BreachMatch[]> {
  const keys = entityNameKeys(name);
  if (keys.length === 0) return [];
  let q = db
    .selectFrom("hhs_breach_names as n")
    .innerJoin("hhs_breaches as b", "b.id", "n.breach_id")
    .selectAll("b")
    .where("n.name_key", "in", keys);
  if (state) q = q.where("n.state", "=", state);
  const rows = await q.execute();
  const seen = new Set<string>();
  const out: BreachMatch[] = [];
  for (const r of rows) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    const m = matchEntityName(name, r.entity_name);
    if (!m) continue;
    const sameState = state !== null && r.state === state;
    out.push({
      confidence: sameState ? m.confidence : Math.round(m.confidence * OTHER_STATE_FACTOR * 100) / 100,
      basis: m.basis,
      same_state: sameState,
      record: recordView(r),
    });
  }
  out.sort((a, b) => b.confidence - a.confidence || b.record.submitted_on.localeCompare(a.record.submitted_on));
  return out.slice(0, MAX_MATCHES);
}

/** What the stored breach data covers: count, newest report, latest import. */
export async function breachDataset(db: Executor): Promise<BreachCheck["dataset"]> {
  return readBreachDataset(db);
}

// The dataset summary scans the whole table (count, newest date): read at most once a second per store, so a burst
// of lookups does not repeat it; an import shows within that second.
const DATASET_TTL_MS = 1_000;
const datasetReads = new WeakMap<Executor, () => Promise<BreachCheck["dataset"]>>();

function cachedBreachDataset(db: Executor): Promise<BreachCheck["dataset"]> {
  let read = datasetReads.get(db);
  if (!read) {
    read = ttlMemo(DATASET_TTL_MS, () => readBreachDataset(db));
    datasetReads.set(db, read);
  }
  return read();
}

async function readBreachDataset(db: Executor): Promise<BreachCheck["dataset"]> {
  const [stats, last] = await Promise.all([
    db
      .selectFrom("hhs_breaches")
      .select((e) => [e.fn.countAll<number>().as("n"), e.fn.max("submitted_on").as("newest")])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("feed_imports")
      .select(["imported_at", "source"])
      .where("feed", "=", "hhs_breaches")
      .where("changed", "=", 1)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    records: Number(stats.n),
    newest_submission: (stats.newest as string | null) ?? null,
    imported_at: last?.imported_at ?? null,
    source: last ? publicFeedSource(last.source) : null,
  };
}

/**
 * hipaa.breach: a registered practice's matches by its name and state (plus its own breach records when the
 * caller owns it), or any entity's by name and state.
 */
export async function breachCheck(
  deps: ServiceDeps,
  input: { npi?: string; name?: string; state?: string },
  callerAccountId: string | null,
): Promise<BreachCheck> {
  const db = deps.store.db;
  let npi: string | null = null;
  let name: string;
  let state: string | null;
  let owned = false;
  if (input.npi) {
    const practice = await getPractice(deps, input.npi);
    npi = practice.npi;
    name = input.name ?? practice.name;
    state = input.state ?? practice.state;
    owned = callerAccountId !== null && practice.account_id === callerAccountId;
  } else {
    name = input.name!;
    state = input.state!;
  }
  const [matches, dataset, own] = await Promise.all([
    breachHistory(db, name, state),
    cachedBreachDataset(db),
    owned && npi
      ? db.selectFrom("breaches").selectAll().where("npi", "=", npi).orderBy("reported_at", "desc").execute()
      : Promise.resolve(null),
  ]);
  return {
    query: { npi, name, state },
    matches,
    own_incidents: own
      ? own.map((b) => ({
          id: b.id,
          source: b.source,
          reported_at: b.reported_at,
          individuals_affected: b.individuals_affected,
        }))
      : null,
    dataset,
  };
}

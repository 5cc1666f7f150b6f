import type { Transaction } from "kysely";
import type { DirectoryEndpoint } from "../../directory/nppes-csv.js";
import type { DirectoryProvider } from "../../directory/provider.js";
import type { NppesProvidersTable } from "../../store/directory-schema.js";
import type { HotSql } from "../../store/hot-sql.js";
import type { Database } from "../../store/schema.js";

/** Rows per INSERT statement: well under both engines' bound-parameter limits (20 columns × 400 = 8,000). */
const ROWS_PER_STATEMENT = 400;

function chunks<T>(rows: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export type ProviderSource = "nppes_csv" | "registry_api";

function providerRow(p: DirectoryProvider, source: ProviderSource, importId: number): NppesProvidersTable {
  return {
    npi: p.npi,
    entity_type: p.entity_type,
    name: p.name,
    address_line1: p.location.line1,
    address_line2: p.location.line2,
    city: p.location.city,
    state: p.location.state,
    postal_code: p.location.postal_code,
    country_code: p.location.country_code,
    taxonomy_code: (p.taxonomies.find((t) => t.primary) ?? p.taxonomies[0])?.code ?? null,
    taxonomies: JSON.stringify(p.taxonomies),
    practice_locations: JSON.stringify(p.practice_locations),
    official_first_name: p.official_first_name,
    official_last_name: p.official_last_name,
    enumerated_on: p.enumerated_on,
    updated_on: p.updated_on,
    deactivated_on: p.deactivated_on,
    reactivated_on: p.reactivated_on,
    source,
    import_id: importId,
  };
}

/** A deactivated NPI as CMS publishes it: the NPI and its deactivation date, every detail blank. */
const isBareDeactivation = (p: DirectoryProvider) => p.entity_type === null && p.name === null;

/**
 * Writes providers (insert or replace by NPI). A bare deactivation record updates the dates of the NPI already held
 * and keeps what was known of it, so a deactivated practice is still named as what it was.
 */
const PROVIDER_COLUMNS = [
  "npi",
  "entity_type",
  "name",
  "address_line1",
  "address_line2",
  "city",
  "state",
  "postal_code",
  "country_code",
  "taxonomy_code",
  "taxonomies",
  "practice_locations",
  "official_first_name",
  "official_last_name",
  "enumerated_on",
  "updated_on",
  "deactivated_on",
  "reactivated_on",
  "source",
  "import_id",
] as const satisfies readonly (keyof NppesProvidersTable)[];

/** The columns a bare deactivation record updates. */
const BARE_UPDATES = ["deactivated_on", "reactivated_on", "import_id"] as const;

/** Statement texts by row count: built once each (the chunk size and the last, shorter chunk). */
const upsertTexts = new Map<string, string>();

/**
 * A multi-row upsert as portable SQL text (`?` placeholders, `excluded.` on both engines), run as a hot statement:
 * the query builder's cost per value was most of an import's time (docs/performance.md#nppes-import).
 */
function upsertText(rows: number, updates: readonly string[]): string {
  const key = `${rows}:${updates.join(",")}`;
  let text = upsertTexts.get(key);
  if (!text) {
    const tuple = `(${PROVIDER_COLUMNS.map(() => "?").join(", ")})`;
    text =
      `insert into nppes_providers (${PROVIDER_COLUMNS.join(", ")}) values ${Array.from({ length: rows }, () => tuple).join(", ")} ` +
      `on conflict (npi) do update set ${updates.map((c) => `${c} = excluded.${c}`).join(", ")}`;
    upsertTexts.set(key, text);
  }
  return text;
}

/**
 * Writes providers (insert or replace by NPI), in `trx`. A bare deactivation record updates the dates of the NPI
 * already held and keeps what was known of it, so a deactivated practice is still named as what it was.
 */
export async function upsertProviders(
  trx: Transaction<Database>,
  hot: HotSql,
  providers: readonly DirectoryProvider[],
  source: ProviderSource,
  importId: number,
): Promise<void> {
  // Within one batch the last record of an NPI wins, as it would across batches.
  const byNpi = new Map(providers.map((p) => [p.npi, p]));
  const full: NppesProvidersTable[] = [];
  const bare: NppesProvidersTable[] = [];
  for (const p of byNpi.values()) (isBareDeactivation(p) ? bare : full).push(providerRow(p, source, importId));
  const write = async (rows: NppesProvidersTable[], updates: readonly string[]) => {
    for (const part of chunks(rows)) {
      const params: unknown[] = [];
      for (const r of part) for (const c of PROVIDER_COLUMNS) params.push(r[c]);
      await hot.all(trx, upsertText(part.length, updates), params);
    }
  };
  await write(full, PROVIDER_COLUMNS.slice(1));
  await write(bare, BARE_UPDATES);
}

/** Writes taxonomy descriptions (insert or replace by code). */
export async function upsertTaxonomies(
  trx: Transaction<Database>,
  taxonomies: ReadonlyMap<string, string>,
): Promise<void> {
  const rows = [...taxonomies].map(([code, description]) => ({ code, description }));
  for (const part of chunks(rows)) {
    await trx
      .insertInto("nppes_taxonomies")
      .values(part)
      .onConflict((oc) => oc.column("code").doUpdateSet((eb) => ({ description: eb.ref("excluded.description") })))
      .execute();
  }
}

/** Writes endpoints (insert or replace by NPI, type and endpoint). */
export async function upsertEndpoints(
  trx: Transaction<Database>,
  endpoints: readonly DirectoryEndpoint[],
  importId: number,
): Promise<void> {
  const unique = new Map(endpoints.map((e) => [`${e.npi}\u0000${e.endpoint_type}\u0000${e.endpoint}`, e]));
  const rows = [...unique.values()].map((e) => ({
    npi: e.npi,
    endpoint_type: e.endpoint_type,
    endpoint: e.endpoint,
    domain: e.domain,
    affiliated: e.affiliated ? 1 : 0,
    import_id: importId,
  }));
  for (const part of chunks(rows)) {
    await trx
      .insertInto("nppes_endpoints")
      .values(part)
      .onConflict((oc) =>
        oc.columns(["npi", "endpoint_type", "endpoint"]).doUpdateSet((eb) => ({
          domain: eb.ref("excluded.domain"),
          affiliated: eb.ref("excluded.affiliated"),
          import_id: eb.ref("excluded.import_id"),
        })),
      )
      .execute();
  }
}

import type { Transaction } from "kysely";
import type { DirectoryEndpoint } from "../../directory/nppes-csv.js";
import type { DirectoryProvider } from "../../directory/provider.js";
import type { NppesProvidersTable } from "../../store/directory-schema.js";
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
export async function upsertProviders(
  trx: Transaction<Database>,
  providers: readonly DirectoryProvider[],
  source: ProviderSource,
  importId: number,
): Promise<void> {
  // Within one batch the last record of an NPI wins, as it would across batches.
  const byNpi = new Map(providers.map((p) => [p.npi, p]));
  const full: NppesProvidersTable[] = [];
  const bare: NppesProvidersTable[] = [];
  for (const p of byNpi.values()) (isBareDeactivation(p) ? bare : full).push(providerRow(p, source, importId));
  for (const rows of chunks(full)) {
    await trx
      .insertInto("nppes_providers")
      .values(rows)
      .onConflict((oc) =>
        oc.column("npi").doUpdateSet((eb) => ({
          entity_type: eb.ref("excluded.entity_type"),
          name: eb.ref("excluded.name"),
          address_line1: eb.ref("excluded.address_line1"),
          address_line2: eb.ref("excluded.address_line2"),
          city: eb.ref("excluded.city"),
          state: eb.ref("excluded.state"),
          postal_code: eb.ref("excluded.postal_code"),
          country_code: eb.ref("excluded.country_code"),
          taxonomy_code: eb.ref("excluded.taxonomy_code"),
          taxonomies: eb.ref("excluded.taxonomies"),
          practice_locations: eb.ref("excluded.practice_locations"),
          official_first_name: eb.ref("excluded.official_first_name"),
          official_last_name: eb.ref("excluded.official_last_name"),
          enumerated_on: eb.ref("excluded.enumerated_on"),
          updated_on: eb.ref("excluded.updated_on"),
          deactivated_on: eb.ref("excluded.deactivated_on"),
          reactivated_on: eb.ref("excluded.reactivated_on"),
          source: eb.ref("excluded.source"),
          import_id: eb.ref("excluded.import_id"),
        })),
      )
      .execute();
  }
  for (const rows of chunks(bare)) {
    await trx
      .insertInto("nppes_providers")
      .values(rows)
      .onConflict((oc) =>
        oc.column("npi").doUpdateSet((eb) => ({
          deactivated_on: eb.ref("excluded.deactivated_on"),
          reactivated_on: eb.ref("excluded.reactivated_on"),
          import_id: eb.ref("excluded.import_id"),
        })),
      )
      .execute();
  }
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

import { type DirectoryEntry, type NotYetAssessed, parseNpi } from "@hcs/protocol";
import { isDeactivated } from "../../directory/provider.js";
import { ServiceError } from "../../errors.js";
import type { NppesProvidersTable } from "../../store/directory-schema.js";
import type { Executor } from "../../store/hot-sql.js";

const entityType = (t: number | null) => (t === 1 ? "NPI-1" : t === 2 ? "NPI-2" : null);

/** The NPI's directory row, or null when the directory does not hold it. */
export function directoryRow(db: Executor, npi: string): Promise<NppesProvidersTable | undefined> {
  return db.selectFrom("nppes_providers").selectAll().where("npi", "=", npi).executeTakeFirst();
}

async function descriptions(db: Executor, codes: readonly string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .selectFrom("nppes_taxonomies")
    .selectAll()
    .where("code", "in", [...codes])
    .execute();
  return new Map(rows.map((r) => [r.code, r.description]));
}

/** The domains the NPI's endpoints name, the practice's own first, each once. */
export async function candidateDomains(db: Executor, npi: string): Promise<DirectoryEntry["candidate_domains"]> {
  const rows = await db
    .selectFrom("nppes_endpoints")
    .select(["domain", "endpoint_type", "affiliated"])
    .where("npi", "=", npi)
    .where("domain", "is not", null)
    .orderBy("affiliated")
    .orderBy("endpoint_type")
    .orderBy("domain")
    .execute();
  const seen = new Set<string>();
  const out: DirectoryEntry["candidate_domains"] = [];
  for (const r of rows) {
    if (seen.has(r.domain!)) continue;
    seen.add(r.domain!);
    out.push({ domain: r.domain!, endpoint_type: r.endpoint_type, affiliated: r.affiliated === 1 });
  }
  return out;
}

/** An NPI as the directory holds it (DirectoryEntrySchema), or npi_not_found when the directory does not hold it. */
export async function directoryEntry(db: Executor, npi: string): Promise<DirectoryEntry> {
  const row = await directoryRow(db, npi);
  if (!row) throw new ServiceError("npi_not_found", `NPI ${npi} is not in the NPPES directory this service holds`);
  const taxonomies = JSON.parse(row.taxonomies) as { code: string; primary: boolean }[];
  const [desc, domains] = await Promise.all([
    descriptions(
      db,
      taxonomies.map((t) => t.code),
    ),
    candidateDomains(db, npi),
  ]);
  const withDescription = taxonomies.map((t) => ({ ...t, description: desc.get(t.code) ?? null }));
  const primary = withDescription.find((t) => t.code === row.taxonomy_code) ?? null;
  return {
    npi: parseNpi(row.npi),
    entity_type: entityType(row.entity_type),
    name: row.name,
    status: isDeactivated(row) ? "deactivated" : "active",
    dates: {
      enumerated_on: row.enumerated_on,
      updated_on: row.updated_on,
      deactivated_on: row.deactivated_on,
      reactivated_on: row.reactivated_on,
    },
    location: {
      line1: row.address_line1,
      line2: row.address_line2,
      city: row.city,
      state: row.state,
      postal_code: row.postal_code,
      country_code: row.country_code,
    },
    practice_locations: JSON.parse(row.practice_locations),
    taxonomy: primary,
    taxonomies: withDescription,
    authorized_official:
      row.official_first_name || row.official_last_name
        ? { first_name: row.official_first_name, last_name: row.official_last_name }
        : null,
    candidate_domains: domains,
  };
}

/**
 * What a grade lookup answers instead of the error `code` when a practice has no grade: for `npi_not_found` (no
 * practice registered) and `no_grade_yet` (registered, not scanned yet — named as registered), the directory's
 * not_yet_assessed answer when the directory holds the NPI; otherwise null (the error stands). One rule for the single
 * lookup and the batch.
 */
export async function notYetAssessedInsteadOf(db: Executor, npi: string, code: string): Promise<NotYetAssessed | null> {
  if (code !== "npi_not_found" && code !== "no_grade_yet") return null;
  const registered =
    code === "no_grade_yet"
      ? await db.selectFrom("practices").select("name").where("npi", "=", npi).executeTakeFirst()
      : undefined;
  return notYetAssessed(db, npi, registered?.name);
}

/**
 * The grade lookup's answer for an NPI without an assessment that the directory holds (NotYetAssessedSchema), or
 * null when the directory does not hold it either. `practiceName`: the registered practice's name, when there is one.
 */
export async function notYetAssessed(db: Executor, npi: string, practiceName?: string): Promise<NotYetAssessed | null> {
  const row = await directoryRow(db, npi);
  if (!row) return null;
  const desc = row.taxonomy_code ? await descriptions(db, [row.taxonomy_code]) : new Map<string, string>();
  return {
    npi: parseNpi(row.npi),
    practice_name: practiceName ?? row.name,
    assessment: "not_yet_assessed",
    directory: {
      entity_type: entityType(row.entity_type),
      status: isDeactivated(row) ? "deactivated" : "active",
      taxonomy: row.taxonomy_code
        ? { code: row.taxonomy_code, description: desc.get(row.taxonomy_code) ?? null, primary: true }
        : null,
      city: row.city,
      state: row.state,
    },
  };
}

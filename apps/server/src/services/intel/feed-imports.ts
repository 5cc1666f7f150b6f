import type { Transaction } from "kysely";
import { entityNameKeys } from "../../intel/entity-names.js";
import { type EolProduct, parseEolData } from "../../intel/eol-json.js";
import { type HhsBreach, parseHhsBreachCsv } from "../../intel/hhs-breach-csv.js";
import { KEV_MATCHING_RULES } from "../../intel/host-findings.js";
import { parseKevCatalogue } from "../../intel/kev-json.js";
import { kevAffectedRanges } from "../../intel/kev-ranges.js";
import { kevProductKey } from "../../intel/product-identity.js";
import type { Database } from "../../store/schema.js";
import type { AuditInTransaction } from "../audit.js";
import { iso, type ServiceDeps } from "../deps.js";
import { reevaluateAfterImport } from "./feed-reevaluation.js";
import type { FeedName, FeedText } from "./feed-source.js";

/** What one import did: the feed, where from, its version, how many records the file held and what changed. */
export interface FeedImportReport {
  readonly import_id: number;
  readonly feed: FeedName;
  readonly source: string;
  readonly version: string;
  readonly sha256: string;
  readonly records: number;
  /** False when this exact content was imported before: nothing was written but the import's record. */
  readonly changed: boolean;
  readonly imported_at: string;
  /** Feed-specific notes: rows counted once, columns ignored, products, hosts re-evaluated. */
  readonly detail: Record<string, unknown>;
}

const ROWS_PER_STATEMENT = 100;

/**
 * Whether this exact content was imported before (and, when `derivedBy` is given, its stored derivations were made
 * by those rules: a file imported under older matching rules is imported again, so the new rules apply to it).
 */
async function alreadyImported(
  trx: Transaction<Database>,
  feed: FeedName,
  sha256: string,
  derivedBy?: { readonly key: string; readonly value: number },
): Promise<boolean> {
  const rows = await trx
    .selectFrom("feed_imports")
    .select("detail")
    .where("feed", "=", feed)
    .where("sha256", "=", sha256)
    .where("changed", "=", 1)
    .execute();
  if (!derivedBy) return rows.length > 0;
  return rows.some((r) => (JSON.parse(r.detail) as Record<string, unknown>)[derivedBy.key] === derivedBy.value);
}

async function recordImport(
  trx: Transaction<Database>,
  row: Omit<FeedImportReport, "import_id" | "changed"> & { changed: boolean },
): Promise<FeedImportReport> {
  const inserted = await trx
    .insertInto("feed_imports")
    .values({
      feed: row.feed,
      source: row.source,
      version: row.version,
      sha256: row.sha256,
      records: row.records,
      changed: row.changed ? 1 : 0,
      imported_at: row.imported_at,
      detail: JSON.stringify(row.detail),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { ...row, import_id: Number(inserted.id) };
}

/**
 * An import recorded before its re-evaluation (so the findings it makes name its version): its notes completed with
 * what the re-evaluation did, then its audit event, in the import's transaction.
 */
async function completeImport(
  trx: Transaction<Database>,
  recorded: FeedImportReport,
  detail: Record<string, unknown>,
  auditIn: AuditInTransaction<FeedImportReport> | undefined,
): Promise<FeedImportReport> {
  await trx
    .updateTable("feed_imports")
    .set({ detail: JSON.stringify(detail) })
    .where("id", "=", recorded.import_id)
    .execute();
  const report = { ...recorded, detail };
  await auditIn?.(trx, report);
  return report;
}

async function inChunks<T>(rows: readonly T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT)
    await write(rows.slice(start, start + ROWS_PER_STATEMENT));
}

/**
 * Imports an HHS OCR breach export: parsed and validated whole first, then written in one transaction (a refused
 * file changes nothing). Reports are merged by identity, so importing the current export and the archive adds
 * both, and importing a file again changes nothing.
 */
export async function importHhsBreaches(
  deps: ServiceDeps,
  feed: FeedText,
  auditIn?: AuditInTransaction<FeedImportReport>,
): Promise<FeedImportReport> {
  const file = parseHhsBreachCsv(feed.text);
  const at = iso(deps.now());
  return deps.store.db.transaction().execute(async (trx) => {
    const repeat = await alreadyImported(trx, "hhs_breaches", feed.sha256);
    const base = {
      feed: "hhs_breaches" as const,
      source: feed.source,
      version: file.newestSubmission ?? "",
      sha256: feed.sha256,
      records: file.breaches.length,
      imported_at: at,
      detail: {
        duplicates_counted_once: file.duplicates,
        ignored_columns: file.ignoredColumns,
      },
    };
    if (repeat) {
      const report = await recordImport(trx, { ...base, changed: false });
      await auditIn?.(trx, report);
      return report;
    }
    const report = await recordImport(trx, { ...base, changed: true });
    await writeBreaches(trx, file.breaches, report.import_id);
    await auditIn?.(trx, report);
    return report;
  });
}

async function writeBreaches(trx: Transaction<Database>, breaches: readonly HhsBreach[], importId: number) {
  await inChunks(breaches, (chunk) =>
    trx
      .insertInto("hhs_breaches")
      .values(
        chunk.map((b) => ({
          id: b.id,
          entity_name: b.entityName,
          state: b.state,
          entity_type: b.entityType,
          individuals_affected: b.individualsAffected,
          submitted_on: b.submittedOn,
          breach_types: JSON.stringify(b.breachTypes),
          locations: JSON.stringify(b.locations),
          business_associate: b.businessAssociatePresent === null ? null : b.businessAssociatePresent ? 1 : 0,
          description: b.description,
          import_id: importId,
        })),
      )
      .onConflict((oc) =>
        oc.column("id").doUpdateSet((eb) => ({
          entity_type: eb.ref("excluded.entity_type"),
          locations: eb.ref("excluded.locations"),
          business_associate: eb.ref("excluded.business_associate"),
          description: eb.ref("excluded.description"),
          import_id: eb.ref("excluded.import_id"),
        })),
      )
      .execute(),
  );
  const names = breaches.flatMap((b) =>
    entityNameKeys(b.entityName).map((name_key) => ({ name_key, state: b.state ?? "", breach_id: b.id })),
  );
  await inChunks(names, (chunk) =>
    trx
      .insertInto("hhs_breach_names")
      .values(chunk)
      .onConflict((oc) => oc.columns(["state", "name_key", "breach_id"]).doNothing())
      .execute(),
  );
}

/**
 * Imports the CISA KEV catalogue: validated whole, then it replaces the stored catalogue in one transaction
 * (KEV is the complete list; an entry CISA removed must go), and every scanned host's findings are re-evaluated
 * against it in that same transaction.
 */
export async function importKev(
  deps: ServiceDeps,
  feed: FeedText,
  auditIn?: AuditInTransaction<FeedImportReport>,
): Promise<FeedImportReport> {
  const kev = parseKevCatalogue(feed.text);
  const now = deps.now();
  // What each entry's product key and affected ranges are, by the current rules (stored beside the entry).
  const derived = kev.vulnerabilities.map((v) => ({
    productKey: kevProductKey(v.vendorProject, v.product),
    ranges: kevAffectedRanges(v),
  }));
  const stated = derived.filter((d) => d.ranges.length > 0);
  const rules = { matching_rules: KEV_MATCHING_RULES };
  return deps.store.db.transaction().execute(async (trx) => {
    const repeat = await alreadyImported(trx, "kev", feed.sha256, { key: "matching_rules", value: KEV_MATCHING_RULES });
    const base = {
      feed: "kev" as const,
      source: feed.source,
      version: kev.catalogVersion,
      sha256: feed.sha256,
      records: kev.vulnerabilities.length,
      imported_at: iso(now),
    };
    if (repeat) {
      const report = await recordImport(trx, {
        ...base,
        changed: false,
        detail: { date_released: kev.dateReleased, ...rules },
      });
      await auditIn?.(trx, report);
      return report;
    }
    await trx.deleteFrom("kev_entries").execute();
    await inChunks(
      kev.vulnerabilities.map((v, i) => ({ v, d: derived[i]! })),
      (chunk) =>
        trx
          .insertInto("kev_entries")
          .values(
            chunk.map(({ v, d }) => ({
              cve_id: v.cveID,
              vendor_project: v.vendorProject,
              product: v.product,
              product_key: d.productKey,
              name: v.vulnerabilityName,
              date_added: v.dateAdded,
              description: v.shortDescription,
              required_action: v.requiredAction,
              due_date: v.dueDate,
              ransomware: v.knownRansomwareCampaignUse ?? "Unknown",
              notes: v.notes ?? "",
              cwes: JSON.stringify(v.cwes ?? []),
              ranges: JSON.stringify(d.ranges),
            })),
          )
          .execute(),
    );
    const derivedDetail = {
      date_released: kev.dateReleased,
      ...rules,
      entries_with_product_key: derived.filter((d) => d.productKey !== null).length,
      entries_with_ranges: stated.length,
      entries_with_upper_bound: stated.filter((d) => d.ranges.some((r) => r.below || r.upTo)).length,
    };
    // Recorded before the re-evaluation, so the findings it makes name this catalogue's version.
    const placeholder = await recordImport(trx, { ...base, changed: true, detail: derivedDetail });
    const reevaluated = await reevaluateAfterImport(trx, now, "kev");
    return completeImport(
      trx,
      placeholder,
      { ...derivedDetail, hosts_reevaluated: reevaluated.hosts, sites_reevaluated: reevaluated.sites },
      auditIn,
    );
  });
}

/**
 * Imports endoflife.date product data (one product or a bundle): each product's cycles replace the stored ones,
 * and every scanned host's end-of-life findings are re-judged in the same transaction.
 */
export async function importEol(
  deps: ServiceDeps,
  feed: FeedText,
  product: string | undefined,
  auditIn?: AuditInTransaction<FeedImportReport>,
): Promise<FeedImportReport> {
  const products: EolProduct[] = parseEolData(feed.text, product);
  const now = deps.now();
  return deps.store.db.transaction().execute(async (trx) => {
    const repeat = await alreadyImported(trx, "eol", feed.sha256);
    const base = {
      feed: "eol" as const,
      source: feed.source,
      version: newestRelease(products),
      sha256: feed.sha256,
      records: products.reduce((n, p) => n + p.cycles.length, 0),
      imported_at: iso(now),
    };
    const names = products.map((p) => p.product);
    if (repeat) {
      const report = await recordImport(trx, { ...base, changed: false, detail: { products: names } });
      await auditIn?.(trx, report);
      return report;
    }
    const placeholder = await recordImport(trx, { ...base, changed: true, detail: { products: names } });
    for (const p of products) {
      await trx
        .insertInto("eol_products")
        .values({ product: p.product, cycles: JSON.stringify(p.cycles), import_id: placeholder.import_id })
        .onConflict((oc) =>
          oc.column("product").doUpdateSet({ cycles: JSON.stringify(p.cycles), import_id: placeholder.import_id }),
        )
        .execute();
    }
    const { hosts } = await reevaluateAfterImport(trx, now, "eol");
    return completeImport(trx, placeholder, { products: names, hosts_reevaluated: hosts }, auditIn);
  });
}

/** The newest release date in the data: how current it is (endoflife.date has no version of its own). */
function newestRelease(products: readonly EolProduct[]): string {
  let newest = "";
  for (const p of products) for (const c of p.cycles) if (c.release && c.release > newest) newest = c.release;
  return newest;
}

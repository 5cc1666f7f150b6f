import type { FindingParsed, PhaseId, ScanResultDocument } from "@hcs/protocol";
import type { Transaction } from "kysely";
import type { EolCycle } from "../../intel/eol-json.js";
import {
  eolFindings,
  inventoryKeys,
  type KevEntry,
  kevFindings,
  matchKev,
  SERVER_HOST_CHECKS,
} from "../../intel/host-findings.js";
import { eolFactsOf, type InventoryItem, inventoryFromFacts } from "../../intel/inventory.js";
import type { AffectedRange } from "../../intel/kev-ranges.js";
import type { Executor } from "../../store/hot-sql.js";
import type { Database } from "../../store/schema.js";
import { noPause } from "../../util/time-slicer.js";
import { iso } from "../deps.js";
import { writeSubjectFindings } from "../finding-writes.js";
import { findingView } from "../grades.js";
import { scanUploadFacts } from "../scan-upload-record.js";

const KEYS_PER_STATEMENT = 500;

/** KEV entries stored under any of `keys`, read in chunks (an inventory can name thousands of packages). */
export async function kevEntriesFor(db: Executor, keys: readonly string[]): Promise<KevEntry[]> {
  const out: KevEntry[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_STATEMENT) {
    const rows = await db
      .selectFrom("kev_entries")
      .selectAll()
      .where("product_key", "in", keys.slice(start, start + KEYS_PER_STATEMENT))
      .execute();
    for (const r of rows)
      out.push({
        cveId: r.cve_id,
        vendorProject: r.vendor_project,
        product: r.product,
        productKey: r.product_key!,
        name: r.name,
        dateAdded: r.date_added,
        description: r.description,
        requiredAction: r.required_action,
        dueDate: r.due_date,
        ransomware: r.ransomware,
        ranges: JSON.parse(r.ranges) as AffectedRange[],
      });
  }
  return out;
}

/** The stored catalogue's version (the latest KEV import that changed data), or null before any import. */
export async function kevCatalogVersion(db: Executor): Promise<string | null> {
  const row = await db
    .selectFrom("feed_imports")
    .select("version")
    .where("feed", "=", "kev")
    .where("changed", "=", 1)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.version ?? null;
}

async function eolDataFor(db: Executor, products: readonly string[]) {
  const out = new Map<string, { cycles: EolCycle[]; asOf: string }>();
  if (products.length === 0) return out;
  const rows = await db
    .selectFrom("eol_products as p")
    .innerJoin("feed_imports as i", "i.id", "p.import_id")
    .select(["p.product", "p.cycles", "i.imported_at"])
    .where("p.product", "in", [...new Set(products)])
    .execute();
  for (const r of rows)
    out.set(r.product, { cycles: JSON.parse(r.cycles) as EolCycle[], asOf: r.imported_at.slice(0, 10) });
  return out;
}

/**
 * The findings the server derives for one scanner host from its upload's facts: KEV entries whose stated
 * ranges hold an installed version, and end-of-life verdicts on the server's current data. `null` when the facts
 * carry no eol phase result (then the scanner's own eol findings stand, as sent).
 */
export async function serverHostFindings(
  db: Executor,
  facts: Record<string, unknown>,
  host: string,
  today: Date,
): Promise<{ findings: FindingParsed[]; judgedProducts: ReadonlySet<string> }> {
  const items: InventoryItem[] = inventoryFromFacts(facts, host);
  const [entries, catalogVersion] = await Promise.all([kevEntriesFor(db, inventoryKeys(items)), kevCatalogVersion(db)]);
  const findings = kevFindings(matchKev(items, entries), host, catalogVersion ?? "", today);
  const eolFacts = eolFactsOf(facts);
  if (!eolFacts) return { findings, judgedProducts: new Set() };
  const eolData = await eolDataFor(
    db,
    eolFacts.products.map((p) => p.product),
  );
  return {
    findings: [...findings, ...eolFindings(eolFacts, eolData, host, today)],
    judgedProducts: new Set(eolFacts.products.map((p) => p.product)),
  };
}

/**
 * Whether a finding the scanner (or an earlier evaluation) reported stays beside the server's: every finding of
 * other checks does; an end-of-life verdict only when the server did not re-judge its product (the upload's facts
 * did not list it — an eol phase that did not run, or facts trimmed to fit the upload limits); a KEV finding never
 * (only the server makes those).
 */
function keptBeside(f: { check_id: string; evidence: unknown }, judgedProducts: ReadonlySet<string>): boolean {
  if (!SERVER_HOST_CHECKS.has(f.check_id)) return true;
  if (!f.check_id.startsWith("eol.")) return false;
  const product = (f.evidence as { product?: unknown } | null)?.product;
  return typeof product !== "string" || !judgedProducts.has(product);
}

/**
 * A scanner upload's findings as the server records them: the scanner's own, with its end-of-life verdicts
 * replaced by the server's (when the upload carries the eol phase's facts) and KEV matches added.
 */
export async function withServerHostFindings(
  trx: Transaction<Database>,
  scannerFindings: readonly FindingParsed[],
  facts: Record<string, unknown>,
  host: string,
  today: Date,
): Promise<FindingParsed[]> {
  const derived = await serverHostFindings(trx, facts, host, today);
  const kept = scannerFindings.filter((f) => keptBeside(f, derived.judgedProducts));
  return [...kept, ...derived.findings];
}

/**
 * The scanner phase a server-derived finding belongs to (the per-phase internal results, docs/scanner.md): an
 * end-of-life verdict to the eol phase, a KEV match to the phase whose facts listed the product (installed
 * software: asset_inventory; the operating system: eol).
 */
export function serverFindingPhase(f: FindingParsed): PhaseId {
  if (f.check_id.startsWith("eol.")) return "eol";
  const via = (f.evidence as { via?: unknown } | null)?.via;
  return via === "operating_system" ? "eol" : "asset_inventory";
}

/**
 * A scanner upload as the server records it: in each phase that completed, the scanner's findings with the
 * server's end-of-life verdicts in place of the scanner's and the KEV matches added, each in the phase it belongs to
 * ({@link serverFindingPhase}); a server finding whose phase did not complete is not added (its phase was not
 * examined). Phases are otherwise as sent.
 */
export async function withServerPhaseFindings(
  trx: Transaction<Database>,
  doc: ScanResultDocument,
  host: string,
  today: Date,
): Promise<ScanResultDocument> {
  const completed = doc.phases.filter((p) => p.status === "ok");
  const scannerFindings = completed.flatMap((p) => p.findings as FindingParsed[]);
  const all = await withServerHostFindings(trx, scannerFindings, scanUploadFacts(doc), host, today);
  const kept = new Set(all);
  const added = all.filter((f) => !scannerFindings.includes(f));
  return {
    ...doc,
    phases: doc.phases.map((p) =>
      p.status !== "ok"
        ? p
        : {
            ...p,
            findings: [
              ...(p.findings as FindingParsed[]).filter((f) => kept.has(f)),
              ...added.filter((f) => serverFindingPhase(f) === p.id),
            ],
          },
    ),
  };
}

/**
 * Every scanner host whose latest upload still has its facts gets its server-derived findings recomputed (the
 * scanner's other findings stay as they are); its practice joins `regrade`. Returns how many hosts were
 * re-evaluated.
 */
export async function reevaluateAllHosts(trx: Transaction<Database>, now: Date, regrade: Set<string>): Promise<number> {
  // The newest upload with facts of each agent (facts are kept for the newest few only).
  const uploads = await trx
    .selectFrom("scan_uploads as u")
    .select(["u.npi", "u.agent_id", "u.summary", "u.facts", "u.completed_at"])
    .where("u.facts", "is not", null)
    .orderBy("u.completed_at", "desc")
    .execute();
  const latest = new Map<string, (typeof uploads)[number]>();
  for (const u of uploads) if (!latest.has(u.agent_id)) latest.set(u.agent_id, u);
  const at = iso(now);
  let hosts = 0;
  for (const u of latest.values()) {
    const host = (JSON.parse(u.summary) as { host?: { hostname?: string } }).host?.hostname?.toLowerCase();
    if (!host) continue;
    const assessed = await trx
      .selectFrom("assessments")
      .select("npi")
      .where("npi", "=", u.npi)
      .where("source", "=", "internal")
      .where("subject", "=", host)
      .executeTakeFirst();
    if (!assessed) continue;
    const open = await trx
      .selectFrom("findings")
      .selectAll()
      .where("npi", "=", u.npi)
      .where("source", "=", "internal")
      .where("subject", "=", host)
      .where("resolved_at", "is", null)
      .execute();
    const derived = await serverHostFindings(trx, JSON.parse(u.facts!) as Record<string, unknown>, host, now);
    const kept = open
      .filter((f) => keptBeside({ check_id: f.check_id, evidence: JSON.parse(f.evidence) }, derived.judgedProducts))
      .map((f) => {
        // The stored finding as the API shows it, without its sighting dates, in the phase it was stored under.
        const { first_seen: _first, last_seen: _last, ...view } = findingView(f);
        return { ...(view as FindingParsed), ...(f.phase ? { phase: f.phase } : {}) };
      });
    const derivedPhased = derived.findings.map((f) => ({ ...f, phase: serverFindingPhase(f) }));
    await writeSubjectFindings(
      trx,
      { npi: u.npi, source: "internal", subject: host, findings: [...kept, ...derivedPhased], at },
      noPause,
    );
    regrade.add(u.npi);
    hosts++;
  }
  return hosts;
}

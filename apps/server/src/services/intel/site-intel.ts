import type { FindingParsed } from "@hcs/protocol";
import type { Transaction } from "kysely";
import { inventoryKeys, matchKev, SITE_KEV_CHECK, siteKevFindings } from "../../intel/host-findings.js";
import { inventoryFromDisclosure } from "../../intel/inventory.js";
import type { Executor } from "../../store/hot-sql.js";
import type { Database } from "../../store/schema.js";
import { noPause } from "../../util/time-slicer.js";
import { iso } from "../deps.js";
import { writeSubjectFindings } from "../finding-writes.js";
import { kevCatalogVersion, kevEntriesFor } from "./host-intel.js";

/** The external check whose evidence lists the product/version pairs a practice's public site discloses. */
const DISCLOSURE_CHECK = "app.server_disclosure.version";

/**
 * The KEV findings of a practice's public surface: the versions its disclosure findings list (each with the site
 * host it was seen on), matched as a scanner host's software is, and kept when the version is confirmed.
 */
export async function serverSiteFindings(
  db: Executor,
  disclosures: readonly { readonly evidence: unknown; readonly host: string }[],
  today: Date,
): Promise<FindingParsed[]> {
  const items = disclosures.flatMap((d) => inventoryFromDisclosure(d.evidence, d.host));
  if (items.length === 0) return [];
  const [entries, catalogVersion] = await Promise.all([kevEntriesFor(db, inventoryKeys(items)), kevCatalogVersion(db)]);
  return siteKevFindings(matchKev(items, entries), catalogVersion ?? "", today);
}

/**
 * An external scan's findings as the server records them: the scan's own, plus a finding per KEV entry whose
 * stated range holds a version the site disclosed — on the external subject, so the external side of the grade
 * carries it (the scan's assessment replaces that subject's findings whole, so a version no longer disclosed
 * resolves its KEV findings too).
 */
export async function withServerSiteFindings(
  trx: Transaction<Database>,
  scanFindings: readonly FindingParsed[],
  today: Date,
): Promise<FindingParsed[]> {
  const disclosures = scanFindings
    .filter((f) => f.check_id === DISCLOSURE_CHECK)
    .map((f) => ({ evidence: f.evidence, host: f.host ?? "" }));
  const own = scanFindings.filter((f) => f.check_id !== SITE_KEV_CHECK);
  return [...own, ...(await serverSiteFindings(trx, disclosures, today))];
}

/**
 * Every public site with an open disclosure finding gets its KEV findings recomputed on the current catalogue;
 * the practice joins `regrade` when the site's set of KEV findings (id, severity, cap) changed. Returns how many
 * sites were re-evaluated.
 */
export async function reevaluateAllSites(trx: Transaction<Database>, now: Date, regrade: Set<string>): Promise<number> {
  const rows = await trx
    .selectFrom("findings")
    .select(["npi", "subject", "check_id", "finding_id", "severity", "grade_cap", "evidence", "host"])
    .where("source", "=", "external")
    .where("check_id", "in", [DISCLOSURE_CHECK, SITE_KEV_CHECK])
    .where("resolved_at", "is", null)
    .execute();
  const subjects = new Map<string, { npi: string; subject: string; rows: typeof rows }>();
  for (const r of rows) {
    const key = `${r.npi}\u0000${r.subject}`;
    const entry = subjects.get(key) ?? { npi: r.npi, subject: r.subject, rows: [] };
    entry.rows.push(r);
    subjects.set(key, entry);
  }
  const at = iso(now);
  const signature = (
    fs: readonly { finding_id?: string; id?: string; severity: string; grade_cap?: string | null }[],
  ) =>
    fs
      .map((f) => `${f.finding_id ?? f.id}|${f.severity}|${f.grade_cap ?? ""}`)
      .sort()
      .join("\n");
  let sites = 0;
  for (const { npi, subject, rows: open } of subjects.values()) {
    const disclosures = open
      .filter((r) => r.check_id === DISCLOSURE_CHECK)
      .map((r) => ({ evidence: JSON.parse(r.evidence) as unknown, host: r.host ?? subject }));
    const derived = await serverSiteFindings(trx, disclosures, now);
    await writeSubjectFindings(
      trx,
      // Only the KEV findings are this evaluation's to resolve; the scan's own findings stay as the scan left them.
      { npi, source: "external", subject, findings: derived, at, examined: (f) => f.check_id === SITE_KEV_CHECK },
      noPause,
    );
    if (signature(open.filter((r) => r.check_id === SITE_KEV_CHECK)) !== signature(derived)) regrade.add(npi);
    if (disclosures.length > 0) sites++;
  }
  return sites;
}

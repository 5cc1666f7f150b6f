import type { ThreatReport } from "@hcs/protocol";
import { inventoryKeys, matchKev } from "../../intel/host-findings.js";
import type { ServiceDeps } from "../deps.js";
import { getPractice } from "../practices.js";
import { kevEntriesFor } from "./host-intel.js";
import { practiceInventory } from "./practice-inventory.js";
import { PRACTICE_ENTITY_TYPE, sectorSummary } from "./sector-summary.js";

const MAX_MATCHES = 200;

/**
 * Threat intelligence for a practice: the CISA KEV entries that match what it runs (version-confirmed matches
 * first, then product-only ones; never an entry whose stated range shows the version fixed), and the breaches its
 * sector reported. Only the practice's owner may ask (the access rule of getThreatIntelligence): the software
 */
export async function threatReport(deps: ServiceDeps, npi: string): Promise<ThreatReport> {
  const db = deps.store.db;
  const practice = await getPractice(deps, npi);
  const inventory = await practiceInventory(db, npi);
  const [entries, catalog, sector] = await Promise.all([
    kevEntriesFor(db, inventoryKeys(inventory.items)),
    db
      .selectFrom("feed_imports")
      .select(["version", "imported_at"])
      .where("feed", "=", "kev")
      .where("changed", "=", 1)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst(),
    sectorSummary(db, PRACTICE_ENTITY_TYPE, practice.state),
  ]);
  const today = deps.now().toISOString().slice(0, 10);
  const matches = matchKev(inventory.items, entries)
    .map(({ item, entry, version }) => ({
      cve: entry.cveId,
      vulnerability: entry.name,
      kev_vendor: entry.vendorProject,
      kev_product: entry.product,
      software: item.name,
      version: item.version,
      seen_on: item.seenOn,
      version_match: version,
      affected_versions: entry.ranges.map((r) => r.source),
      date_added: entry.dateAdded,
      due_date: entry.dueDate,
      known_ransomware_use: entry.ransomware.toLowerCase() === "known",
      fix: entry.requiredAction,
    }))
    .sort(
      (a, b) =>
        Number(a.version_match !== "affected") - Number(b.version_match !== "affected") ||
        Number(b.known_ransomware_use) - Number(a.known_ransomware_use) ||
        b.date_added.localeCompare(a.date_added) ||
        a.cve.localeCompare(b.cve),
    );
  const confirmed = matches.filter((m) => m.version_match === "affected");
  return {
    npi,
    practice_name: practice.name,
    inventory: {
      hosts: inventory.hosts,
      software: inventory.items.filter((i) => i.via !== "server_banner").length,
      disclosed_by_public_servers: inventory.disclosed,
    },
    matches: matches.slice(0, MAX_MATCHES),
    truncated: Math.max(0, matches.length - MAX_MATCHES),
    summary: {
      version_confirmed: confirmed.length,
      product_only: matches.length - confirmed.length,
      known_ransomware_use: confirmed.filter((m) => m.known_ransomware_use).length,
      past_due: confirmed.filter((m) => m.due_date < today).length,
    },
    sector,
    kev_catalog: catalog ? { version: catalog.version, imported_at: catalog.imported_at } : null,
  };
}

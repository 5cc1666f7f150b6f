import { type CategoryName, type FindingParsed, type HipaaControlId, phaseDescriptor } from "@hcs/protocol";
import { CONTROLS } from "../external-scan/controls.js";
import type { EolCycle } from "./eol-json.js";
import { findCycle, judgeCycle } from "./eol-verdict.js";
import type { EolProductFact, InventoryItem } from "./inventory.js";
import { type AffectedRange, judgeVersion, type VersionVerdict } from "./kev-ranges.js";
import { inventoryProductKeys } from "./product-identity.js";

/**
 * The version of the rules that derive a stored KEV entry's product key and affected ranges (product-identity.ts,
 * kev-ranges.ts). Recorded with each KEV import; bump it when they change, so that importing the same catalogue
 * again re-derives every entry and re-evaluates every host and site by the new rules (an identical file is
 * otherwise a no-op).
 */
export const KEV_MATCHING_RULES = 2;

/** A KEV entry as matching reads it. */
export interface KevEntry {
  readonly cveId: string;
  readonly vendorProject: string;
  readonly product: string;
  readonly productKey: string;
  readonly name: string;
  readonly dateAdded: string;
  readonly description: string;
  readonly requiredAction: string;
  readonly dueDate: string;
  readonly ransomware: string;
  readonly ranges: readonly AffectedRange[];
}

export interface KevMatch {
  readonly item: InventoryItem;
  readonly entry: KevEntry;
  /** affected: the version lies in a range the entry states; unknown: the entry states none (product match only). */
  readonly version: Exclude<VersionVerdict, "fixed">;
}

/** Every inventory key, for looking the KEV entries up by product key. */
export function inventoryKeys(items: readonly InventoryItem[]): string[] {
  return [...new Set(items.flatMap((i) => inventoryProductKeys(i.name)))];
}

/**
 * KEV entries that match the inventory: same product key (intel/product-identity.ts), and a version the entry's
 * stated ranges do not rule out. An entry whose ranges show the version fixed is no match; one that states no
 * range is a product-only match (`version: unknown`), which is reported but never graded.
 */
export function matchKev(items: readonly InventoryItem[], entries: readonly KevEntry[]): KevMatch[] {
  const byKey = new Map<string, KevEntry[]>();
  for (const e of entries) {
    const list = byKey.get(e.productKey);
    if (list) list.push(e);
    else byKey.set(e.productKey, [e]);
  }
  const out: KevMatch[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    for (const key of inventoryProductKeys(item.name)) {
      for (const entry of byKey.get(key) ?? []) {
        const version = judgeVersion(item.version, entry.ranges, item.packaged ?? false);
        if (version === "fixed") continue;
        const id = `${entry.cveId}|${item.seenOn}|${item.name}|${item.version}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({ item, entry, version });
      }
    }
  }
  return out;
}

const ID_UNSAFE = /[^a-z0-9_.:\-/[\]@]/gi;
const idPart = (s: string) => s.replace(ID_UNSAFE, "_");
const PATCHES = phaseDescriptor("patches");
const EOL = phaseDescriptor("eol");

/** Finding check ids the server derives for scanner hosts; a re-evaluation replaces exactly these. */
export const SERVER_HOST_CHECKS: ReadonlySet<string> = new Set([
  "patches.known_exploited_vulnerability",
  "eol.end_of_life_os",
  "eol.end_of_life_software",
  "eol.end_of_life_soon",
]);

/** Where a KEV finding is recorded: the scanner host's internal assessment, or the practice's public surface. */
interface KevFindingPlace {
  readonly source: "internal" | "external";
  readonly checkId: string;
  readonly category: CategoryName;
  readonly controls: readonly HipaaControlId[];
  /** The id's subject part, after the check id. */
  readonly subject: string;
  readonly host: string;
}

/**
 * The finding of one version-confirmed KEV match: critical when CISA knows it is used by ransomware, else high;
 * past the KEV due date it caps the grade (docs/scoring.md §5.1).
 */
function kevFinding(
  { item, entry }: KevMatch,
  place: KevFindingPlace,
  catalogVersion: string,
  day: string,
): FindingParsed {
  const ransomware = entry.ransomware.toLowerCase() === "known";
  const pastDue = entry.dueDate < day;
  return {
    id: `${place.checkId}:${idPart(place.subject)}`.slice(0, 200),
    check_id: place.checkId,
    source: place.source,
    category: place.category,
    severity: ransomware ? "critical" : "high",
    title: `${item.name} ${item.version} has ${entry.cveId}, exploited in the wild (CISA KEV)`.slice(0, 200),
    detail: `${entry.name}. ${entry.description}`.slice(0, 2000),
    evidence: {
      cve: entry.cveId,
      software: item.name,
      version: item.version,
      seen_on: item.seenOn,
      // installed_software or operating_system: which scanner phase's facts listed it (serverFindingPhase);
      // server_banner: a Server / X-Powered-By header of the practice's public site.
      via: item.via,
      // Only matches whose version lies in a stated range are findings (docs/intelligence.md §3).
      version_match: "affected",
      kev_vendor: entry.vendorProject,
      kev_product: entry.product,
      affected: entry.ranges.map((r) => r.source),
      date_added: entry.dateAdded,
      due_date: entry.dueDate,
      known_ransomware_use: ransomware,
      kev_catalog_version: catalogVersion,
    },
    remediation:
      `${entry.requiredAction} Update ${item.name} past the affected versions (${entry.ranges.map((r) => r.source).join("; ")}).`.slice(
        0,
        2000,
      ),
    controls: [...place.controls],
    host: place.host,
    ...(pastDue ? { grade_cap: "known_exploited_past_due" as const } : {}),
  };
}

/**
 * A finding per KEV entry whose stated range holds a version installed on a scanner host (asset_management, the
 * patches phase's control). Product-only matches are not findings: most KEV entries state no versions, and a
 * product name alone would flag every host that runs it.
 */
export function kevFindings(
  matches: readonly KevMatch[],
  host: string,
  catalogVersion: string,
  today: Date,
): FindingParsed[] {
  const day = today.toISOString().slice(0, 10);
  return matches
    .filter((m) => m.version === "affected" && m.item.via !== "server_banner")
    .map((m) =>
      kevFinding(
        m,
        {
          source: "internal",
          checkId: "patches.known_exploited_vulnerability",
          category: PATCHES.categories[0]!,
          controls: PATCHES.controls,
          subject: `${m.entry.cveId}@${m.item.name}`,
          host,
        },
        catalogVersion,
        day,
      ),
    );
}

/** The check id of a KEV match on a version the practice's public site discloses (docs/scoring.md §5.1). */
export const SITE_KEV_CHECK = "app.server_disclosure.known_exploited_vulnerability";

/**
 * A finding per KEV entry whose stated range holds a version a public server discloses in its headers: on the
 * external side of the grade (application_security, with the server-disclosure check's controls), by the same
 * rules as a scanner host's — version-confirmed only, and never for a distribution's build.
 */
export function siteKevFindings(matches: readonly KevMatch[], catalogVersion: string, today: Date): FindingParsed[] {
  const day = today.toISOString().slice(0, 10);
  return matches
    .filter((m) => m.version === "affected" && m.item.via === "server_banner")
    .map((m) => {
      const site = m.item.seenOn.replace(/^site:/, "");
      return kevFinding(
        m,
        {
          source: "external",
          checkId: SITE_KEV_CHECK,
          category: "application_security",
          controls: CONTROLS.softwareRisk,
          subject: `${m.entry.cveId}@${site}/${m.item.name}`,
          host: site,
        },
        catalogVersion,
        day,
      );
    });
}

/** Within this many days of end of life a product earns an early warning (as the scanner does). */
const WARN_DAYS = 90;

/**
 * End-of-life findings for the products a scanner identified, judged on the server's endoflife.date data where
 * it holds the product, else on the scanner's own verdict (its bundled data, whose date the evidence shows). The
 * same check ids, ids and wording as the scanner's eol phase, so a fresher verdict replaces a stale one in place.
 */
export function eolFindings(
  facts: { datasetDate: string | null; products: readonly EolProductFact[] },
  serverData: ReadonlyMap<string, { cycles: readonly EolCycle[]; asOf: string }>,
  host: string,
  today: Date,
): FindingParsed[] {
  const out: FindingParsed[] = [];
  const seen = new Set<string>();
  for (const p of facts.products) {
    // A distribution's build is supported while its release is: upstream's dates for the number do not apply, and
    // an ended release is the OS entry's finding.
    if (p.support === "distribution") continue;
    const server = serverData.get(p.product);
    let status: "supported" | "eol" | "unknown";
    let cycle: string;
    let eol: string | null;
    let daysLeft: number | null;
    let judgedBy: Record<string, string | null>;
    if (server) {
      const v = judgeCycle(findCycle(server.cycles, p.cycle, p.version), today);
      ({ status, cycle, eol, daysLeft } = v);
      judgedBy = { judged_by: "server", dataset: "endoflife.date", dataset_date: server.asOf };
    } else {
      status = p.status;
      cycle = p.cycle;
      eol = p.eol;
      daysLeft = eol
        ? Math.round(
            (Date.parse(`${eol}T00:00:00Z`) - Date.parse(`${today.toISOString().slice(0, 10)}T00:00:00Z`)) / 86_400_000,
          )
        : null;
      judgedBy = {
        judged_by: "scanner",
        dataset: "scanner bundled endoflife.date snapshot",
        dataset_date: facts.datasetDate,
      };
    }
    const subject = `${p.product}@${cycle}`;
    if (seen.has(subject)) continue;
    seen.add(subject);
    const label = `${p.name} ${p.version}`.trim();
    const evidence = { name: p.name, version: p.version, product: p.product, cycle, eol, ...judgedBy };
    if (status === "eol") {
      const check = p.kind === "os" ? "end_of_life_os" : "end_of_life_software";
      out.push({
        id: `eol.${check}:${idPart(subject)}`.slice(0, 200),
        check_id: `eol.${check}`,
        source: "internal",
        category: EOL.categories[0]!,
        severity: p.kind === "os" ? "critical" : "high",
        title: `${label} is past its end of life${eol ? ` (${eol})` : ""}`.slice(0, 200),
        detail: "It no longer receives security fixes, so known vulnerabilities stay open for good.",
        evidence,
        remediation: `Upgrade ${p.product} to a supported release (or buy extended security support while migrating).`,
        controls: [...EOL.controls],
        host,
        grade_cap: "end_of_life_system",
      });
    } else if (status === "supported" && daysLeft !== null && daysLeft >= 0 && daysLeft <= WARN_DAYS) {
      out.push({
        id: `eol.end_of_life_soon:${idPart(subject)}`.slice(0, 200),
        check_id: "eol.end_of_life_soon",
        source: "internal",
        category: EOL.categories[0]!,
        severity: "low",
        title: `${label} reaches end of life in ${daysLeft} days`.slice(0, 200),
        detail: "Plan the upgrade before security fixes stop.",
        evidence,
        remediation: `Schedule the upgrade of ${p.product} to a supported release.`,
        controls: [...EOL.controls],
        host,
      });
    }
  }
  return out;
}

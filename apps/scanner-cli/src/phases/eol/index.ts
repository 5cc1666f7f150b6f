import type { FindingInput, JsonObject } from "@hcs/protocol";
import type { Software, SoftwareSource } from "../asset_inventory/parse.js";
import { softwareOf, softwareSourceOf } from "../asset_inventory/software-facts.js";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { phaseFinding } from "../shared/finding.js";
import { ok } from "../shared/outcome.js";
import { EOL_DATASET_DATE, type EolMatch, identifyProduct, matchEndOfLife, type ProductRef } from "./match.js";
import { identifyPackage, type PackageBuild } from "./packages.js";

/** Within this many days of end of life a product earns an early warning. */
const WARN_DAYS = 90;

/**
 * End-of-life OS and server software against the bundled, dated endoflife.date snapshot (phase 10, docs/scanner.md).
 */
export const eolPhase = definePhase({
  id: "eol",
  platforms: ["linux", "darwin", "win32"],
  dependsOn: ["asset_inventory"],
  run: checkEndOfLife,
});

interface Subject {
  readonly kind: "os" | "software";
  readonly name: string;
  readonly version: string;
}

/** Whose support window a verdict follows (see packages.ts): the product's vendor, or the host's distribution. */
type SupportBy = { readonly by: "upstream" } | { readonly by: "distribution"; readonly release: EolMatch | null };

interface Judged {
  readonly subject: Subject;
  /** The upstream product and cycle the version belongs to, with upstream's verdict. */
  readonly upstream: EolMatch;
  readonly support: SupportBy;
}

/** What the verdict is: upstream's, or for a distribution's build the distribution release's. */
function verdictOf(j: Judged): EolMatch | null {
  return j.support.by === "upstream" ? j.upstream : j.support.release;
}

async function checkEndOfLife(ctx: PhaseContext): Promise<PhaseOutcome> {
  const os = await ctx.host.sysinfo.osInfo();
  const today = ctx.host.now();
  const osSubject: Subject = { kind: "os", name: os.distro, version: os.release || os.build };
  const osRef = identifyProduct(osSubject.name, osSubject.version);
  const osMatch = osRef ? matchEndOfLife(osRef, today) : null;
  const inventory = ctx.earlier.get("asset_inventory");
  const software = softwareOf(inventory);
  const source = softwareSourceOf(inventory);
  const judged: Judged[] = osMatch ? [{ subject: osSubject, upstream: osMatch, support: { by: "upstream" } }] : [];
  const seen = new Set<string>();
  for (const s of software ?? []) {
    const ref = identifySoftware(source, s);
    if (!ref) continue;
    const key = `${ref.product}@${ref.version}@${ref.build}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const support: SupportBy =
      ref.build === "distribution"
        ? { by: "distribution", release: osMatch?.status === "unknown" ? null : osMatch }
        : { by: "upstream" };
    judged.push({ subject: { kind: "software", ...s }, upstream: matchEndOfLife(ref, today), support });
  }
  return ok(
    {
      dataset_date: EOL_DATASET_DATE,
      os: { name: os.distro, version: os.release },
      software_checked: software?.length ?? 0,
      ...(source ? { software_source: source } : {}),
      products: judged.map(productFact),
    },
    eolFindings(judged),
  );
}

/**
 * Packages (dpkg, rpm) are identified by their exact name in their ecosystem; display names (macOS applications,
 * Windows programs) and lists whose source is not recorded by the name rules of normalize.ts.
 */
function identifySoftware(source: SoftwareSource | null, s: Software): (ProductRef & { build: PackageBuild }) | null {
  if (source === "dpkg" || source === "rpm") return identifyPackage(source, s.name, s.version);
  const ref = identifyProduct(s.name, s.version);
  return ref ? { ...ref, build: "upstream" } : null;
}

function productFact(j: Judged): JsonObject {
  const verdict = verdictOf(j);
  const base = {
    kind: j.subject.kind,
    name: j.subject.name,
    version: j.subject.version,
    product: j.upstream.product,
    cycle: j.upstream.cycle,
    status: verdict?.status ?? "unknown",
    eol: verdict?.eol ?? null,
    days_left: verdict?.daysLeft ?? null,
  };
  if (j.support.by === "upstream") return { ...base, support: "upstream" };
  return {
    ...base,
    // The distribution backports fixes under the upstream number: its release's window applies, not upstream's.
    support: "distribution",
    distribution: j.support.release ? `${j.support.release.product}@${j.support.release.cycle}` : null,
    distribution_support_until: j.support.release?.extendedUntil ?? j.support.release?.eol ?? null,
    upstream_status: j.upstream.status,
    upstream_eol: j.upstream.eol,
  };
}

/**
 * One finding per product and cycle (its id's subject), whatever number of packages or versions showed it: two
 * versions of one cycle are one unsupported product, and ids must be unique within a scan. Distribution builds
 * raise none of their own: their window is their release's, and an ended release is the OS finding.
 */
function eolFindings(judged: readonly Judged[]): FindingInput[] {
  const bySubject = new Map<string, Judged[]>();
  for (const j of judged) {
    if (j.support.by !== "upstream" || j.upstream.cycle === "") continue;
    const key = `${j.subject.kind}:${j.upstream.product}@${j.upstream.cycle}`;
    bySubject.set(key, [...(bySubject.get(key) ?? []), j]);
  }
  const packaged = judged.filter((j) => j.support.by === "distribution").map((j) => j.subject.name);
  return [...bySubject.values()].flatMap((group) => {
    const first = group[0]!;
    return eolFinding(
      first.subject,
      first.upstream,
      group.slice(1).map((j) => j.subject),
      first.subject.kind === "os" ? packaged : [],
    );
  });
}

/** How many names a finding's evidence lists, at most. */
const MAX_NAMES = 20;

function eolFinding(
  subject: Subject,
  match: EolMatch,
  alsoSeen: readonly Subject[],
  distributionPackages: readonly string[],
): FindingInput[] {
  const label = `${subject.name} ${subject.version}`.trim();
  const evidence = {
    name: subject.name,
    version: subject.version,
    product: match.product,
    cycle: match.cycle,
    eol: match.eol,
    dataset_date: EOL_DATASET_DATE,
    support: "upstream",
    ...(alsoSeen.length ? { also_seen: alsoSeen.slice(0, MAX_NAMES).map((s) => `${s.name} ${s.version}`) } : {}),
    // The distribution's own builds of server software end with the release.
    ...(distributionPackages.length ? { distribution_packages: distributionPackages.slice(0, MAX_NAMES) } : {}),
  };
  if (match.status === "eol") {
    return [
      phaseFinding("eol", {
        check: subject.kind === "os" ? "end_of_life_os" : "end_of_life_software",
        subject: `${match.product}@${match.cycle}`,
        severity: subject.kind === "os" ? "critical" : "high",
        gradeCap: "end_of_life_system",
        title: `${label} is past its end of life${match.eol ? ` (${match.eol})` : ""}`,
        detail: "It no longer receives security fixes, so known vulnerabilities stay open for good.",
        remediation: `Upgrade ${match.product} to a supported release (or buy extended security support while migrating).`,
        evidence,
      }),
    ];
  }
  if (match.status === "supported" && match.daysLeft !== null && match.daysLeft <= WARN_DAYS) {
    return [
      phaseFinding("eol", {
        check: "end_of_life_soon",
        subject: `${match.product}@${match.cycle}`,
        severity: "low",
        title: `${label} reaches end of life in ${match.daysLeft} days`,
        detail: "Plan the upgrade before security fixes stop.",
        remediation: `Schedule the upgrade of ${match.product} to a supported release.`,
        evidence,
      }),
    ];
  }
  return [];
}

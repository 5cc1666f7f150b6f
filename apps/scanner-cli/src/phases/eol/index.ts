import type { FindingInput } from "@hcs/protocol";
import { softwareOf } from "../asset_inventory/software-facts.js";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { phaseFinding } from "../shared/finding.js";
import { ok } from "../shared/outcome.js";
import { EOL_DATASET_DATE, type EolMatch, identifyProduct, matchEndOfLife } from "./match.js";

/** Within this many days of end of life a product earns an early warning. */
const WARN_DAYS = 90;

/** End-of-life OS and server software against the bundled, dated endoflife.date snapshot (DESIGN §3.6, phase 10). */
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

async function checkEndOfLife(ctx: PhaseContext): Promise<PhaseOutcome> {
  const os = await ctx.host.sysinfo.osInfo();
  const today = ctx.host.now();
  const subjects: Subject[] = [{ kind: "os", name: os.distro, version: os.release || os.build }];
  const software = softwareOf(ctx.earlier.get("asset_inventory"));
  for (const s of software ?? []) subjects.push({ kind: "software", ...s });
  const matched: { subject: Subject; match: EolMatch }[] = [];
  const seen = new Set<string>();
  for (const subject of subjects) {
    const ref = identifyProduct(subject.name, subject.version);
    if (!ref) continue;
    const key = `${ref.product}@${ref.version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    matched.push({ subject, match: matchEndOfLife(ref, today) });
  }
  const findings = matched.flatMap(({ subject, match }) => eolFinding(subject, match));
  return ok(
    {
      dataset_date: EOL_DATASET_DATE,
      os: { name: os.distro, version: os.release },
      software_checked: software?.length ?? 0,
      products: matched.map(({ subject, match }) => ({
        kind: subject.kind,
        name: subject.name,
        version: subject.version,
        product: match.product,
        cycle: match.cycle,
        status: match.status,
        eol: match.eol,
        days_left: match.daysLeft,
      })),
    },
    findings,
  );
}

function eolFinding(subject: Subject, match: EolMatch): FindingInput[] {
  const label = `${subject.name} ${subject.version}`.trim();
  const evidence = {
    name: subject.name,
    version: subject.version,
    product: match.product,
    cycle: match.cycle,
    eol: match.eol,
    dataset_date: EOL_DATASET_DATE,
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

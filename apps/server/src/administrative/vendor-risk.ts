import { CREDIT_PRICES } from "@hcs/protocol";
import type { ServiceDeps } from "../services/deps.js";
import { iso } from "../services/deps.js";
import { type BaaCoverage, baaCoverage } from "./business-associate.js";
import { listBusinessAssociates } from "./business-associates.js";
import { dateOf } from "./calendar-date.js";
import type { BreachHistoryProvider, VendorDomainGrade, VendorGradeSource } from "./vendor-grades.js";
import type { VendorRisk } from "./vendor-risk-schema.js";

/** A vendor domain's grade is reused this long before it is scanned again. */
export const VENDOR_GRADE_MAX_AGE_DAYS = 30;
/** At most this many vendor domains are scanned in one call (the call waits for them). */
export const VENDOR_SCANS_PER_CALL = 5;

/*
 * The vendor risk score (0–100, higher is riskier) adds four documented factors:
 * PHI access 20; BAA missing or expired with PHI access 40, expiring 10; the external grade of the vendor's domain
 * A 0 · B 8 · C 16 · D 24 · F 30, not assessed 15; breach history 10 per HHS-reported breach in the last three years
 * (at most 10; 0 while the history is not available). Bands: low < 20 ≤ moderate < 40 ≤ high < 60 ≤ critical.
 */
const GRADE_POINTS: Record<string, number> = { A: 0, B: 8, C: 16, D: 24, F: 30 };
export const bandOf = (score: number) =>
  score < 20 ? "low" : score < 40 ? "moderate" : score < 60 ? "high" : "critical";

export interface VendorFacts {
  readonly phi_access: boolean;
  readonly coverage: BaaCoverage | null;
  readonly grade: VendorDomainGrade | null;
  readonly breaches: number | null;
}

/** The factors and score of one vendor (pure). */
export function vendorRiskScore(v: VendorFacts) {
  const baaPoints = !v.phi_access
    ? 0
    : v.coverage === "missing" || v.coverage === "expired"
      ? 40
      : v.coverage === "expiring"
        ? 10
        : v.coverage === null
          ? 40
          : 0;
  const gradePoints = v.grade?.status === "graded" ? GRADE_POINTS[v.grade.grade]! : 15;
  const breachPoints = v.breaches === null ? 0 : Math.min(10, v.breaches * 10);
  const factors = [
    { factor: "phi_access", weight: 20, points: v.phi_access ? 20 : 0, value: v.phi_access ? "yes" : "no" },
    { factor: "baa", weight: 40, points: baaPoints, value: v.coverage ?? "not recorded" },
    {
      factor: "external_grade",
      weight: 30,
      points: gradePoints,
      value: v.grade?.status === "graded" ? v.grade.grade : "not assessed",
    },
    {
      factor: "breach_history",
      weight: 10,
      points: breachPoints,
      value: v.breaches === null ? "not available" : String(v.breaches),
    },
  ];
  const score = factors.reduce((n, f) => n + f.points, 0);
  return { score, band: bandOf(score), factors };
}

interface VendorRiskDeps extends ServiceDeps {
  readonly vendorGrades?: VendorGradeSource;
  readonly breachHistory?: BreachHistoryProvider;
}

/**
 * Each recorded vendor (or only `vendorDomain`) with its BAA, the external grade of its domain — reused for 30
 * days, else scanned now, at most five per call, each charged as a scan (taken from the balance before any scan
 * starts) — and its breach history when a provider exists.
 */
export async function vendorRiskFor(
  deps: VendorRiskDeps,
  npi: string,
  /** Takes the call's price before any scan starts (refused with 402, nothing scanned, when the balance is short). */
  reserve: (credits: number) => Promise<void>,
  vendorDomain?: string,
): Promise<VendorRisk> {
  const recorded = (await listBusinessAssociates(deps, npi)).business_associates;
  const today = dateOf(deps.now());
  const vendors = vendorDomain
    ? [
        recorded.find((v) => v.domain === vendorDomain) ?? {
          vendor_id: null,
          name: vendorDomain,
          domain: vendorDomain,
          phi_access: false,
          baa_status: null,
          expires_on: null,
        },
      ]
    : recorded;
  const domains = [...new Set(vendors.flatMap((v) => (v.domain ? [v.domain] : [])))];
  const cached = domains.length
    ? await deps.store.db.selectFrom("vendor_domain_grades").selectAll().where("domain", "in", domains).execute()
    : [];
  const fresh = new Map(
    cached
      .filter(
        (c) => (Date.parse(today) - Date.parse(c.scanned_at.slice(0, 10))) / 86_400_000 <= VENDOR_GRADE_MAX_AGE_DAYS,
      )
      .map((c) => [c.domain, c]),
  );
  const toScan = deps.vendorGrades ? domains.filter((d) => !fresh.has(d)).slice(0, VENDOR_SCANS_PER_CALL) : [];
  if (toScan.length > 0) {
    await reserve(CREDIT_PRICES.vendor_risk + toScan.length * CREDIT_PRICES.full_scan);
    const graded = await Promise.all(toScan.map(async (d) => [d, await deps.vendorGrades!.gradeOf(d)] as const));
    const at = iso(deps.now());
    for (const [domain, g] of graded) {
      const row = {
        domain,
        grade: g.status === "graded" ? g.grade : null,
        score: g.status === "graded" ? g.score : null,
        detail: g.detail,
        scanned_at: at,
      };
      await deps.store.db
        .insertInto("vendor_domain_grades")
        .values(row)
        .onConflict((oc) =>
          oc.column("domain").doUpdateSet({ grade: row.grade, score: row.score, detail: row.detail, scanned_at: at }),
        )
        .execute();
      fresh.set(domain, row);
    }
  }
  const out = await Promise.all(
    vendors.map(async (v) => {
      const g = v.domain ? fresh.get(v.domain) : undefined;
      const grade: VendorDomainGrade | null = g
        ? g.grade
          ? { status: "graded", grade: g.grade as "A", score: g.score!, detail: g.detail }
          : { status: "not_assessed", detail: g.detail }
        : null;
      const history = deps.breachHistory
        ? await deps.breachHistory.breachesOf({ name: v.name, domain: v.domain })
        : null;
      const threeYearsAgo = `${Number(today.slice(0, 4)) - 3}${today.slice(4)}`;
      const breaches = history ? history.breaches.filter((b) => b.reported_on >= threeYearsAgo).length : null;
      const coverage = v.baa_status ? baaCoverage({ baa_status: v.baa_status, expires_on: v.expires_on }, today) : null;
      const { score, band, factors } = vendorRiskScore({ phi_access: v.phi_access, coverage, grade, breaches });
      return {
        vendor_id: v.vendor_id,
        name: v.name,
        domain: v.domain,
        phi_access: v.phi_access,
        baa_status: v.baa_status,
        baa_coverage: coverage,
        external_grade: {
          status: grade?.status ?? ("not_available" as const),
          grade: grade?.status === "graded" ? grade.grade : null,
          score: grade?.status === "graded" ? grade.score : null,
          detail:
            grade?.detail ??
            (!v.domain
              ? "no domain recorded for this vendor"
              : deps.vendorGrades
                ? `not scanned: at most ${VENDOR_SCANS_PER_CALL} vendor domains are scanned per call; call again`
                : "no external scan engine in this process"),
          scanned_at: g?.scanned_at ?? null,
        },
        breach_history: history
          ? {
              status: "available" as const,
              breaches,
              detail: `HHS OCR breach portal, dataset of ${history.dataset_date}`,
            }
          : {
              status: "not_available" as const,
              breaches: null,
              detail:
                "no HHS OCR breach data is imported on this server (hcs-server data import hhs-breaches); scored 0",
            },
        score,
        band: band as "low",
        factors,
      };
    }),
  );
  return {
    npi,
    vendors: out.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)),
    domains_scanned: toScan.length,
  };
}

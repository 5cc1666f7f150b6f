import type { BreachProbability } from "@hcs/protocol";
import { BREACH_MODEL_VERSION, estimateBreachProbability } from "../../intel/breach-probability-model.js";
import type { ServiceDeps } from "../deps.js";
import { getPractice } from "../practices.js";
import { PRACTICE_ENTITY_TYPE } from "./sector-summary.js";

const WINDOW_MONTHS = 24;

/**
 * hipaa.breach_probability: the model of intel/breach-probability-model.ts over the practice's open findings and
 * the HHS report rate of its entity type in the 24 months ending at the newest report held.
 */
export async function breachProbabilityFor(
  deps: ServiceDeps,
  npi: string,
  sizeBand: "small" | "medium" | "large" = "small",
): Promise<BreachProbability> {
  const db = deps.store.db;
  await getPractice(deps, npi);
  const newest = await db
    .selectFrom("hhs_breaches")
    .select((e) => e.fn.max("submitted_on").as("d"))
    .executeTakeFirst();
  const to = (newest?.d as string | null | undefined) ?? null;
  let from: string | null = null;
  let reports = 0;
  if (to) {
    const start = new Date(`${to}T00:00:00Z`);
    start.setUTCMonth(start.getUTCMonth() - WINDOW_MONTHS);
    from = start.toISOString().slice(0, 10);
    const row = await db
      .selectFrom("hhs_breaches")
      .select((e) => e.fn.countAll<number>().as("n"))
      .where("entity_type", "=", PRACTICE_ENTITY_TYPE)
      .where("submitted_on", ">", from)
      .where("submitted_on", "<=", to)
      .executeTakeFirstOrThrow();
    reports = Number(row.n);
  }
  const [findings, assessed] = await Promise.all([
    db
      .selectFrom("findings")
      .select(["finding_id", "title", "check_id", "grade_cap", "severity", "category"])
      .where("npi", "=", npi)
      .where("resolved_at", "is", null)
      .execute(),
    db.selectFrom("assessments").select("source").where("npi", "=", npi).execute(),
  ]);
  const reportsPerYear = (reports * 12) / WINDOW_MONTHS;
  const estimate = estimateBreachProbability({
    reportsPerYear,
    entityType: PRACTICE_ENTITY_TYPE,
    sizeBand,
    findings,
  });
  const sources = new Set(assessed.map((a) => a.source));
  const notAssessed = [
    ...(to ? [] : ["HHS breach data not imported: the base rate is 0 until it is"]),
    ...(["external", "internal", "administrative"] as const)
      .filter((s) => !sources.has(s))
      .map((s) => `no ${s} assessment: factors it would show cannot be seen`),
  ];
  return {
    npi,
    model_version: BREACH_MODEL_VERSION,
    horizon_months: 12,
    probability: estimate.probability,
    band: estimate.band,
    base_rate: {
      probability: estimate.baseProbability,
      entity_type: PRACTICE_ENTITY_TYPE,
      size_band: sizeBand,
      size_multiplier: estimate.sizeMultiplier,
      reports_per_year: reportsPerYear,
      assumed_population: estimate.population,
      window: { from, to },
      source: "HHS OCR breach portal reports (breaches of 500+ records) imported into this service",
    },
    factors: estimate.factors,
    not_assessed: notAssessed,
    caveat:
      "A ranked, explained estimate from public breach counts and this practice's open findings, with stated multipliers: not an actuarial model, not calibrated against outcomes. See docs/breach-probability.md.",
  };
}

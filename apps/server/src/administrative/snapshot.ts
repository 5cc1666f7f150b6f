import type { ServiceDeps } from "../services/deps.js";
import type { Executor } from "../store/hot-sql.js";
import { dateOf } from "./calendar-date.js";
import type { AdministrativeSnapshot } from "./evaluation.js";
import { incidentView } from "./incidents.js";
import { trainingSummary } from "./training-status.js";

/** Reads what the practice has recorded (SRA, questionnaire, policies, roster, vendors, incidents) as of now. */
export function readAdministrativeSnapshot(deps: ServiceDeps, npi: string): Promise<AdministrativeSnapshot> {
  return readAdministrativeSnapshotIn(deps.store.db, npi, deps.now());
}

/** {@link readAdministrativeSnapshot} through `db` (the store or a transaction), as of `now`. */
export async function readAdministrativeSnapshotIn(
  db: Executor,
  npi: string,
  now: Date,
): Promise<AdministrativeSnapshot> {
  const today = dateOf(now);
  const [assessments, policies, roster, completions, vendors, incidents] = await Promise.all([
    db
      .selectFrom("risk_assessments")
      .select(["kind", (eb) => eb.fn.max("created_at").as("latest")])
      .where("npi", "=", npi)
      .groupBy("kind")
      .execute(),
    db
      .selectFrom("policy_documents")
      .select(["policy_number", (eb) => eb.fn.max("generated_at").as("latest")])
      .where("npi", "=", npi)
      .groupBy("policy_number")
      .execute(),
    db.selectFrom("workforce_members").selectAll().where("npi", "=", npi).execute(),
    db
      .selectFrom("training_completions")
      .select(["member_id", "course", "completed_on"])
      .where("npi", "=", npi)
      .execute(),
    db.selectFrom("business_associates").select(["vendor_id", "record"]).where("npi", "=", npi).execute(),
    db.selectFrom("incidents").selectAll().where("npi", "=", npi).execute(),
  ]);
  const latest = (kind: string) => {
    const v = assessments.find((a) => a.kind === kind)?.latest;
    return v ? String(v).slice(0, 10) : null;
  };
  return {
    today,
    sra_on: latest("sra"),
    questionnaire_on: latest("questionnaire"),
    policies: new Map(policies.map((p) => [Number(p.policy_number), String(p.latest).slice(0, 10)])),
    training: roster.length === 0 ? null : trainingSummary(roster, completions, today),
    vendors: vendors.map((v) => ({ vendor_id: v.vendor_id, ...JSON.parse(v.record) })),
    incidents: incidents.map((i) => incidentView(i, today)),
  };
}

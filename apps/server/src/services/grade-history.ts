import type { ServiceDeps } from "./deps.js";
import { getOwnedPractice } from "./practices.js";

export interface GradePoint {
  readonly computed_at: string;
  readonly compliance_score: number;
  readonly grade: string;
}

/** The practice's latest `limit` grades, oldest first (the score trend), for its owning account. */
export async function gradeHistory(
  deps: ServiceDeps,
  npi: string,
  accountId: string,
  limit = 30,
): Promise<GradePoint[]> {
  await getOwnedPractice(deps, npi, accountId);
  const rows = await deps.store.db
    .selectFrom("grades")
    .select(["computed_at", "compliance_score", "grade"])
    .where("npi", "=", npi)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({ ...r, compliance_score: Number(r.compliance_score) }));
}

import { randomBytes } from "node:crypto";
import { type PracticeEvidence, readPracticeEvidence } from "../services/compliance-state.js";
import type { ServiceDeps } from "../services/deps.js";
import { iso } from "../services/deps.js";
import { addYears, dateOf } from "./calendar-date.js";
import { type Responses, resolveAnswers } from "./risk/answers.js";
import { QUESTIONNAIRE, QUESTIONNAIRE_VERSION } from "./risk/questionnaire.js";
import type { RiskAssessmentView } from "./risk/risk-assessment-view.js";
import { buildSraReport, type SraReport, SraReportSchema } from "./risk/sra-report.js";

interface StoredResponses {
  readonly questionnaire_version: string;
  readonly responses: Responses;
}

async function latest(deps: ServiceDeps, npi: string, kind: "questionnaire" | "sra") {
  return deps.store.db
    .selectFrom("risk_assessments")
    .selectAll()
    .where("npi", "=", npi)
    .where("kind", "=", kind)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
}

async function insertVersion(
  deps: ServiceDeps,
  npi: string,
  kind: "questionnaire" | "sra",
  body: (v: number, id: string) => unknown,
) {
  return deps.store.db.transaction().execute(async (trx) => {
    const prev = await trx
      .selectFrom("risk_assessments")
      .select((eb) => eb.fn.max("version").as("v"))
      .where("npi", "=", npi)
      .where("kind", "=", kind)
      .executeTakeFirst();
    const version = Number(prev?.v ?? 0) + 1;
    const id = `${kind === "sra" ? "sra" : "rsp"}_${randomBytes(8).toString("hex")}`;
    const value = body(version, id);
    await trx
      .insertInto("risk_assessments")
      .values({ id, npi, kind, version, body: JSON.stringify(value), created_at: iso(deps.now()) })
      .execute();
    return { id, version, value };
  });
}

/** The latest stored responses (empty before any). */
async function storedResponses(
  deps: ServiceDeps,
  npi: string,
): Promise<{ responses: Responses; version: number | null; at: string | null }> {
  const row = await latest(deps, npi, "questionnaire");
  if (!row) return { responses: {}, version: null, at: null };
  return {
    responses: (JSON.parse(row.body) as StoredResponses).responses,
    version: Number(row.version),
    at: row.created_at,
  };
}

/** Stores a new version of the responses: the ones sent replace the same questions' earlier answers. */
export async function submitResponses(deps: ServiceDeps, npi: string, responses: Responses): Promise<number> {
  const prev = await storedResponses(deps, npi);
  const merged = { ...prev.responses, ...responses };
  const { version } = await insertVersion(deps, npi, "questionnaire", () => ({
    questionnaire_version: QUESTIONNAIRE_VERSION,
    responses: merged,
  }));
  return version;
}

/** Runs the SRA over the latest responses and the scan evidence, and stores it as a new version. */
export async function runSra(deps: ServiceDeps, npi: string): Promise<SraReport> {
  const [{ responses }, evidence] = await Promise.all([storedResponses(deps, npi), readPracticeEvidence(deps, npi)]);
  const answers = resolveAnswers(responses, evidence);
  const at = iso(deps.now());
  const { value } = await insertVersion(deps, npi, "sra", (version, id) =>
    buildSraReport(answers, { npi, id, version, assessed_at: at }),
  );
  return value as SraReport;
}

/** The questionnaire pre-filled from evidence, with the stored responses, their flags and the latest SRA. */
export async function riskAssessmentView(deps: ServiceDeps, npi: string): Promise<RiskAssessmentView> {
  const [stored, evidence, sra] = await Promise.all([
    storedResponses(deps, npi),
    readPracticeEvidence(deps, npi),
    latest(deps, npi, "sra"),
  ]);
  return viewOf(npi, stored, evidence, sra ? SraReportSchema.parse(JSON.parse(sra.body)) : null, dateOf(deps.now()));
}

function viewOf(
  npi: string,
  stored: Awaited<ReturnType<typeof storedResponses>>,
  evidence: PracticeEvidence,
  report: SraReport | null,
  today: string,
): RiskAssessmentView {
  const resolved = new Map(resolveAnswers(stored.responses, evidence).map((a) => [a.question, a]));
  return {
    npi,
    questionnaire: {
      version: QUESTIONNAIRE_VERSION,
      sections: QUESTIONNAIRE.map((s) => ({
        id: s.id,
        title: s.title,
        questions: s.questions.map((q) => {
          const a = resolved.get(q.id)!;
          return {
            id: q.id,
            text: q.text,
            controls: [...q.controls],
            prefill: a.evidence ? { ...a.evidence, findings: [...a.evidence.findings] } : null,
            response: stored.responses[q.id] ?? null,
            flag: a.contradiction,
          };
        }),
      })),
    },
    responses_version: stored.version,
    responses_submitted_at: stored.at,
    assessment: {
      status: !report ? "missing" : addYears(report.assessed_at.slice(0, 10), 1) < today ? "expired" : "current",
      report,
    },
  };
}

import { FindingSchema, type Job, JobResultSchema, JobSchema } from "@hcs/protocol";
import { z } from "zod";
import type { JobsTable } from "../store/schema.js";
import { jobView, resultView } from "./jobs.js";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Findings of a stored result checked per event-loop turn (~4 ms of a 2,500-finding result's ~40 ms). */
const FINDINGS_PER_TURN = 250;
const ResultHeadSchema = JobResultSchema.omit({ findings: true });
const FindingsSliceSchema = z.array(FindingSchema);

/**
 * The job as jobView shows it — the same object, checked against the same schemas — with its stored result checked
 * a slice of findings per event-loop turn: one result of a practice's 2,500 findings (~2.3 MB) checked at once held
 * the loop 40–90 ms (a job listing, a report).
 */
export async function jobViewInSlices(row: Omit<JobsTable, "report_basis">): Promise<Job> {
  if (row.result === null) return jobView(row);
  const stored = resultView(row) as { findings?: unknown };
  await nextTurn();
  const { findings, ...head } = stored;
  const checked: unknown[] = [];
  if (Array.isArray(findings))
    for (let i = 0; i < findings.length; i += FINDINGS_PER_TURN) {
      checked.push(...FindingsSliceSchema.parse(findings.slice(i, i + FINDINGS_PER_TURN)));
      await nextTurn();
    }
  else FindingsSliceSchema.parse(findings);
  const result = { ...ResultHeadSchema.parse(head), findings: checked };
  const view = jobView({ ...row, result: null }) as Record<string, unknown>;
  // In JobSchema's key order, as jobView would have answered it.
  const job: Record<string, unknown> = {};
  for (const key of Object.keys(JobSchema.shape))
    if (key === "result") job.result = result;
    else if (key in view) job[key] = view[key];
  return job as Job;
}

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ReportSources } from "../reports/build-model.js";

/**
 * What a real run left in the store for a report: a full scan of the Riverside sample practice (its own DNS and
 * HTTPS site on loopback) after a scanner upload with a hostile finding, as reportSourcesForJob read it (the public
 * URL replaced by hcs.example).
 */
export const RIVERSIDE: ReportSources = JSON.parse(
  readFileSync(join(import.meta.dirname, "../reports/fixtures/riverside-sources.json"), "utf8"),
);

/**
 * A completed job's result (a stored JobResult) with `count` findings: Riverside's, repeated with ids of their own —
 * the size of the largest practices (~900 bytes a finding; 2,500 findings are ~2.3 MB).
 */
export function largeJobResult(count: number): NonNullable<ReportSources["job"]["result"]> {
  const result = RIVERSIDE.job.result;
  const base = result.findings;
  return {
    ...result,
    findings: Array.from({ length: count }, (_, i) => {
      const f = base[i % base.length]!;
      return { ...f, id: `${f.id}:n${i}` };
    }),
  };
}

/** Riverside's report sources with `count` findings in its job's result (see {@link largeJobResult}). */
export function largeReportSources(count: number): ReportSources {
  return { ...RIVERSIDE, job: { ...RIVERSIDE.job, result: largeJobResult(count) } };
}

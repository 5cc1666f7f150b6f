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

import { FindingInputSchema, type FindingParsed } from "@hcs/protocol";
import type { Kysely } from "kysely";
import { type ExternalScanIO, isExternalScanError, runExternalScan } from "../external-scan/index.js";
import type { Database } from "../store/schema.js";
import { JobError, type JobExecutor } from "./executors.js";

export interface FullScanDeps {
  readonly db: Kysely<Database>;
  readonly io: ExternalScanIO;
  readonly allowPrivateTargets: boolean;
  readonly now: () => Date;
  /** Budget of one external scan (default: the engine's 60 s). */
  readonly scanTimeoutMs?: number;
}

/** `full` scan: the external scan of the practice's domain and website, stored as the external subject. */
export function fullScanExecutor(deps: FullScanDeps): JobExecutor {
  return async (job, signal) => {
    const practice = await deps.db
      .selectFrom("practices")
      .select(["domain", "website"])
      .where("npi", "=", job.npi)
      .executeTakeFirst();
    if (!practice) throw new JobError("npi_not_found", `practice ${job.npi} no longer exists`, false);
    try {
      const result = await runExternalScan({ domain: practice.domain, website: practice.website }, deps.io, {
        allowPrivateTargets: deps.allowPrivateTargets,
        signal,
        now: deps.now,
        ...(deps.scanTimeoutMs ? { timeoutMs: deps.scanTimeoutMs } : {}),
      });
      const findings: FindingParsed[] = result.findings.map((f) => FindingInputSchema.parse(f));
      return { source: "external", subject: result.target.domain, categories: result.categories, findings };
    } catch (err) {
      if (isExternalScanError(err)) {
        if (err.code === "scan_cancelled")
          throw new JobError("scan_cancelled", "the worker stopped during the scan", true);
        throw new JobError(err.code, err.message, false);
      }
      throw err;
    }
  };
}

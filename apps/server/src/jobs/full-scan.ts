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
      if (result.categories.length === 0) {
        // Nothing could be assessed, so there is no grade to give. Neither case is helped by an immediate retry:
        // refused targets stay private, and every check already waited out its timeout. The caller gets a prompt,
        // refunded failure that says what happened and may dispatch again later.
        const refused = result.checks.some((c) => c.status === "refused");
        const statuses = [...new Set(result.checks.map((c) => c.status))].join(", ");
        throw refused
          ? new JobError(
              "target_refused",
              "every check was refused: the practice's addresses are private and private targets are not allowed",
              false,
            )
          : new JobError(
              "target_unreachable",
              `no check could reach the practice's domain or website (check outcomes: ${statuses})`,
              false,
            );
      }
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

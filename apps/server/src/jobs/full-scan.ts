import type { Kysely } from "kysely";
import type { ExternalScanIO, ExternalScanIOOptions } from "../external-scan/index.js";
import type { Database } from "../store/schema.js";
import { JobError, type JobExecutor } from "./executors.js";

export interface FullScanDeps {
  readonly db: Kysely<Database>;
  /** How to build the scan's IO (HCS_DNS_SERVERS, extra CAs); built once, at the first scan. */
  readonly ioOptions: ExternalScanIOOptions;
  readonly allowPrivateTargets: boolean;
  readonly now: () => Date;
  /** Budget of one external scan (default: the engine's 60 s). */
  readonly scanTimeoutMs?: number;
}

/** `full` scan: the external scan of the practice's domain and website, stored as the external subject. */
export function fullScanExecutor(deps: FullScanDeps): JobExecutor {
  // The scan engine (HTML parser, tracker lists, DNS client) is loaded with the first scan, so processes that
  // only serve requests never carry it.
  let engine: Promise<{ io: ExternalScanIO; scan: typeof import("../external-scan/index.js") }> | null = null;
  const loadEngine = () => {
    engine ??= import("../external-scan/index.js").then((scan) => ({
      io: scan.createExternalScanIO(deps.ioOptions),
      scan,
    }));
    return engine;
  };
  return async (job, signal) => {
    const { io, scan } = await loadEngine();
    // A claimant's scan examines the claimed domain; an owner's, the practice's (proved) domain and website.
    const claimed = job.claim_id
      ? await deps.db.selectFrom("practice_claims").select("domain").where("id", "=", job.claim_id).executeTakeFirst()
      : null;
    const practice = claimed
      ? { domain: claimed.domain, website: `https://${claimed.domain}/` }
      : await deps.db
          .selectFrom("practices")
          .select(["domain", "website"])
          .where("npi", "=", job.npi)
          .executeTakeFirst();
    if (!practice) throw new JobError("npi_not_found", `practice ${job.npi} no longer exists`, false);
    try {
      const result = await scan.runExternalScan({ domain: practice.domain, website: practice.website }, io, {
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
      // The scan's findings were validated when they were made (externalFinding); they are stored as they are.
      return {
        source: "external",
        subject: result.target.domain,
        categories: result.categories,
        findings: result.findings,
      };
    } catch (err) {
      if (scan.isExternalScanError(err)) {
        if (err.code === "scan_cancelled")
          throw new JobError("scan_cancelled", "the worker stopped during the scan", true);
        throw new JobError(err.code, err.message, false);
      }
      throw err;
    }
  };
}

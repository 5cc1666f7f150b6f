import { type Grade, scorePractice } from "@hcs/protocol";
import type { ExternalScanIOOptions } from "../external-scan/index.js";

/** The external grade of a vendor's domain, as the practice's own external scan would grade it. */
export type VendorDomainGrade =
  | { readonly status: "graded"; readonly grade: Grade; readonly score: number; readonly detail: string }
  | { readonly status: "not_assessed"; readonly detail: string };

/** Grades a vendor's domain (an external scan); absent where no scan engine runs (the stdio MCP server). */
export interface VendorGradeSource {
  gradeOf(domain: string): Promise<VendorDomainGrade>;
}

/**
 * The breach history of a vendor (services/intel/vendor-breach-history.ts: the imported HHS OCR reports). Null when
 * no breach data is loaded; the vendor risk then reports the history as not available (and scores it 0).
 */
export interface BreachHistoryProvider {
  breachesOf(vendor: { readonly name: string; readonly domain: string | null }): Promise<{
    readonly breaches: readonly { readonly reported_on: string; readonly individuals_affected: number | null }[];
    readonly dataset_date: string;
  } | null>;
}

/** Budget of one vendor domain scan: shorter than a practice's (the call waits for it). */
export const VENDOR_SCAN_BUDGET_MS = 20_000;

/** The vendor grade source over the external scan engine (loaded with the first vendor scan). */
export function externalScanVendorGrades(options: {
  readonly ioOptions: ExternalScanIOOptions;
  readonly allowPrivateTargets: boolean;
  readonly now: () => Date;
  readonly timeoutMs?: number;
}): VendorGradeSource {
  let engine: Promise<{
    io: import("../external-scan/index.js").ExternalScanIO;
    scan: typeof import("../external-scan/index.js");
  }> | null = null;
  return {
    async gradeOf(domain) {
      engine ??= import("../external-scan/index.js").then((scan) => ({
        io: scan.createExternalScanIO(options.ioOptions),
        scan,
      }));
      const { io, scan } = await engine;
      const result = await scan.runExternalScan({ domain, website: null }, io, {
        allowPrivateTargets: options.allowPrivateTargets,
        now: options.now,
        timeoutMs: options.timeoutMs ?? VENDOR_SCAN_BUDGET_MS,
      });
      const scored = scorePractice([scan.externalScoringSubject(result)]);
      if (!scored) {
        const refused = result.checks.some((c) => c.status === "refused");
        return {
          status: "not_assessed",
          detail: refused
            ? "the domain's addresses are private and private targets are not allowed"
            : "no check could reach the domain",
        };
      }
      return {
        status: "graded",
        grade: scored.grade,
        score: scored.compliance_score,
        detail: `external scan: ${result.findings.filter((f) => f.severity !== "info").length} finding(s) over ${scored.coverage.external.categories_with_data.length} categories`,
      };
    },
  };
}

import type { Logger } from "pino";
import type { BreachHistoryProvider, VendorGradeSource } from "./administrative/vendor-grades.js";
import type { AnchoringStatusSource } from "./audit/anchor/anchor-status.js";
import type { AuditLogKeys } from "./audit/log-keys.js";
import type { Config } from "./config.js";
import type { ScannerPackage } from "./downloads/scanner-package.js";
import type { Metrics } from "./http/metrics.js";
import type { ServiceDeps } from "./services/deps.js";

/** Everything the HTTP app needs, injected (tests build it with a temp store and a fixed clock). */
export interface AppDeps extends ServiceDeps {
  /** `host` (the bind address): /mcp answers only to the names the server's certificate covers. */
  readonly config: Pick<
    Config,
    "publicUrl" | "host" | "trustProxy" | "allowPrivateTargets" | "extraCaFile" | "dnsServers" | "contactEmail"
  >;
  readonly logger: Logger;
  readonly tls: { readonly caSha256: string };
  readonly metrics: Metrics;
  /** Seconds since this process started serving. */
  readonly uptimeSeconds: () => number;
  readonly version: string;
  /**
   * The audit log's signing keys, shared through the database (absent in processes that sign no checkpoints, such as
   * the stdio MCP server).
   */
  readonly auditLogKey?: AuditLogKeys;
  /** The state of checkpoint anchoring, for /readyz (absent: anchoring is not configured). */
  readonly auditAnchoring?: AnchoringStatusSource;
  /** Grades vendors' domains for hipaa.vendor_risk (absent where no scan engine runs: vendor grades not available). */
  readonly vendorGrades?: VendorGradeSource;
  /**
   * Breach history of vendors, from the imported HHS breach reports (docs/intelligence.md, "Breach matching");
   * absent: hipaa.vendor_risk reports a vendor's breaches as "not available".
   */
  readonly breachHistory?: BreachHistoryProvider;
  /**
   * What /downloads/ serves: the scanner package (null when none was found at start-up) and the CA certificate
   * clients trust this server by. Absent in processes that serve no HTTP.
   */
  readonly downloads?: { readonly scanner: ScannerPackage | null; readonly caPem: string };
  /** Tells this process's job worker that work is waiting (absent when the process runs no worker). */
  readonly wakeWorker?: () => void;
  /** The customer portal's settings (absent: the defaults, a 15-minute idle log-off). */
  readonly portal?: { readonly idleMinutes: number };
}

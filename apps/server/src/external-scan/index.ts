// The external scan's public surface, written out (no `export *`).

export type { CheckRecord } from "./check.js";
export { CHECK_STATUSES, type CheckStatus } from "./check-status.js";
export { EXTERNAL_CHECKS } from "./checks.js";
export { ExternalScanError, type ExternalScanErrorCode, isExternalScanError } from "./errors.js";
export {
  CHECK_CATALOGUE,
  type CheckCatalogueEntry,
  externallyVerifiedControls,
  type FindingKind,
} from "./finding-catalogue.js";
export {
  createExternalScanIO,
  DEFAULT_IO_TIMEOUTS,
  type ExternalScanIOOptions,
  ExternalScanIOOptionsSchema,
} from "./io/create-io.js";
export type { DnsServerAddress } from "./io/dns.js";
export type {
  DnsAnswer,
  DnsIO,
  ExternalScanIO,
  HttpIO,
  HttpOutcome,
  MxRecord,
  TcpIO,
  TlsHandshakeOutcome,
  TlsProbeIO,
  TlsSuiteOfferRequest,
  TlsSuiteOutcome,
} from "./io/types.js";
export { type CrawlLimits, DEFAULT_CRAWL_LIMITS } from "./privacy/crawl.js";
export {
  checkFactsOf,
  DEFAULT_SCAN_BUDGET_MS,
  type ExternalScanOptions,
  type ExternalScanResult,
  runExternalScan,
} from "./run-external-scan.js";
export { externalScoringSubject } from "./scoring-subject.js";
export type { ScanTargetInput } from "./target.js";

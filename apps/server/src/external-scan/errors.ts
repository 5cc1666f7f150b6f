/** Why the external scan could not be run at all (a scan that merely found problems never throws). */
export type ExternalScanErrorCode =
  /** The domain or website is not something we can scan (bad syntax, unsupported scheme). */
  | "invalid_target"
  /** The caller's signal aborted the scan (worker shutting down); partial results are not returned. */
  | "scan_cancelled";

export class ExternalScanError extends Error {
  constructor(
    readonly code: ExternalScanErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ExternalScanError";
  }
}

export function isExternalScanError(error: unknown): error is ExternalScanError {
  return error instanceof ExternalScanError;
}

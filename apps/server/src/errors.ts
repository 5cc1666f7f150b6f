import type { ErrorCode } from "@hcs/protocol";

/**
 * A failure every transport knows how to report: REST maps it to the error body (docs/api.md#errors) and the code's
 * HTTP status, JSON-RPC to its numeric family. `message` is shown to the client, so it must never contain secrets or
 * internals.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof ServiceError;
}

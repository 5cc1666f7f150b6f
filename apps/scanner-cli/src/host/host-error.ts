/** Codes of the few host failures that are not results (the machine itself is unusable for a scan). */
export type HostErrorCode = "unsupported_platform";

/** A typed host failure; callers branch on `code`, never on the message. */
export class HostError extends Error {
  override readonly name = "HostError";
  constructor(
    readonly code: HostErrorCode,
    message: string,
  ) {
    super(message);
  }
}

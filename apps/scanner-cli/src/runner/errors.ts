/** Codes of bad `--targets` input; the CLI maps them to a usage error (exit 2). */
export type ScopeErrorCode =
  | "invalid_target"
  | "cidr_too_large"
  | "scope_too_large"
  | "unresolvable_target"
  | "auto_not_alone"
  | "no_local_subnet";

/** A `--targets` value that cannot become a scan scope. `target` is the offending item as the user typed it. */
export class ScopeError extends Error {
  override readonly name = "ScopeError";
  constructor(
    readonly code: ScopeErrorCode,
    message: string,
    readonly target?: string,
  ) {
    super(message);
  }
}

export type PhaseSelectionErrorCode = "unknown_phase" | "empty_selection";

/** A `--phases` value naming no phase or an unknown one (`unknown` lists them). */
export class PhaseSelectionError extends Error {
  override readonly name = "PhaseSelectionError";
  constructor(
    readonly code: PhaseSelectionErrorCode,
    message: string,
    readonly unknown: readonly string[] = [],
  ) {
    super(message);
  }
}

/** Documented exit codes (README of the scanner, `hcs-scanner --help`). */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  belowFailUnder: 3,
  spooled: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export type CliErrorCode =
  | "usage"
  | "not_registered"
  | "token_missing"
  | "token_malformed"
  | "token_rejected"
  | "server_unreachable"
  | "server_untrusted"
  | "server_error"
  | "config_unreadable"
  | "scan_failed";

const EXIT_FOR: Record<CliErrorCode, ExitCode> = {
  usage: EXIT.usage,
  token_missing: EXIT.usage,
  token_malformed: EXIT.usage,
  not_registered: EXIT.failure,
  token_rejected: EXIT.failure,
  server_unreachable: EXIT.failure,
  server_untrusted: EXIT.failure,
  server_error: EXIT.failure,
  config_unreadable: EXIT.failure,
  scan_failed: EXIT.failure,
};

/** A failure the CLI reports in one clear line; bin.ts maps it to its exit code. Never carries a secret. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    readonly code: CliErrorCode,
    message: string,
    /** The server's error code when the server refused something. */
    readonly serverCode?: string,
  ) {
    super(message);
  }

  get exitCode(): ExitCode {
    return EXIT_FOR[this.code];
  }
}

/** Thrown by commands to end with a non-error exit code (3: below --fail-under, 4: spooled). */
export class ExitWith extends Error {
  override readonly name = "ExitWith";
  constructor(readonly exitCode: ExitCode) {
    super(`exit ${exitCode}`);
  }
}

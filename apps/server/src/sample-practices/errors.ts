/** Why the sample practices could not start. */
export type SamplePracticesErrorCode =
  /** Binding a port below 1024 needs root or CAP_NET_BIND_SERVICE. */
  | "permission_denied"
  /** Another process holds the port on that address (a second set of sample practices, or a local service). */
  | "address_in_use"
  /** The loopback address is not configured (macOS only has 127.0.0.1 unless aliases are added). */
  | "address_not_available"
  | "bind_failed"
  /** A loopback prefix outside 127.0.0.0/8 was asked for. */
  | "invalid_options";

export class SamplePracticesError extends Error {
  constructor(
    readonly code: SamplePracticesErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SamplePracticesError";
  }

  /** A clear error for a failed listen on `where` (address:port). */
  static fromBind(error: unknown, where: string): SamplePracticesError {
    const code = (error as NodeJS.ErrnoException).code;
    switch (code) {
      case "EACCES":
        return new SamplePracticesError(
          "permission_denied",
          `cannot listen on ${where}: ports below 1024 need root or CAP_NET_BIND_SERVICE (e.g. sudo setcap cap_net_bind_service=+ep "$(command -v node)")`,
        );
      case "EADDRINUSE":
        return new SamplePracticesError(
          "address_in_use",
          `cannot listen on ${where}: the port is in use (another set of sample practices, or a local service bound to all addresses); pass another loopbackPrefix`,
        );
      case "EADDRNOTAVAIL":
        return new SamplePracticesError(
          "address_not_available",
          `cannot listen on ${where}: the address is not configured (on macOS: sudo ifconfig lo0 alias <address>)`,
        );
      default:
        return new SamplePracticesError("bind_failed", `cannot listen on ${where}: ${code ?? String(error)}`);
    }
  }
}

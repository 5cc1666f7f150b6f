/**
 * The bench's precision goal (docs/scanner.md#measured-against-lynis-benchhost-audit): no finding may claim that a
 * listener bound to loopback only is exposed to the network.
 * Pure: the bench reads the machine's listening sockets itself (`ss -Hltn`, independent of the scanner's own socket
 * table reader) and hands the scan's findings here.
 */

/** Findings that say a service can be reached, or is open, at a port (the port in their evidence). */
const EXPOSURE_CHECKS = new Set(["ports.risky_service", "segmentation.sensitive_service_reachable"]);

export interface ClaimedFinding {
  readonly id: string;
  readonly check_id: string;
  readonly title: string;
  readonly evidence: Readonly<Record<string, unknown>>;
}

/** `ss -Hltn` lines: the listening TCP sockets as `port → local addresses`. */
export function parseSsListeners(text: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const line of text.split("\n")) {
    const local = line.trim().split(/\s+/)[3];
    if (!local) continue;
    const m = /^(.*):(\d+)$/.exec(local);
    if (!m) continue;
    const address = m[1]!.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
    const port = Number(m[2]);
    out.set(port, [...(out.get(port) ?? []), address]);
  }
  return out;
}

const isLoopback = (a: string) => /^127\./.test(a) || a === "::1" || a === "::ffff:127.0.0.1";

/**
 * Findings that claim exposure (an open risky service, a sensitive service reachable from the segment) of a port
 * whose every listening socket is bound to loopback, or Redis without a password said to listen beyond loopback.
 */
export function loopbackExposureClaims(
  findings: readonly ClaimedFinding[],
  listeners: ReadonlyMap<number, readonly string[]>,
): ClaimedFinding[] {
  const loopbackOnly = (port: unknown) => {
    const addresses = typeof port === "number" ? listeners.get(port) : undefined;
    return addresses !== undefined && addresses.length > 0 && addresses.every(isLoopback);
  };
  return findings.filter((f) => {
    if (EXPOSURE_CHECKS.has(f.check_id)) return loopbackOnly(f.evidence.port);
    if (f.check_id === "ports.redis_without_password") {
      return f.evidence.exposure === "network" && loopbackOnly(f.evidence.port);
    }
    return false;
  });
}

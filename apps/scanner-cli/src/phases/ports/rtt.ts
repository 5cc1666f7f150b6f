/**
 * Round-trip time estimate and the timeout derived from it, as TCP (RFC 6298) and nmap do: smoothed RTT plus four
 * times its variation, clamped. A fast LAN or loopback gets short timeouts; a slow link earns longer ones.
 */
export interface TimeoutBounds {
  readonly initialMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

/** nmap -T4's bounds: initial 500 ms (we start at 1 s until a first answer), min 100 ms, max 1250 ms. */
export const DEFAULT_TIMEOUT_BOUNDS: TimeoutBounds = { initialMs: 1000, minMs: 100, maxMs: 1250 };

export class RttEstimator {
  private srtt: number | null = null;
  private rttvar = 0;
  private samples = 0;

  constructor(private readonly bounds: TimeoutBounds = DEFAULT_TIMEOUT_BOUNDS) {}

  /** Feeds the time an answer (open or closed) took. */
  observe(rttMs: number): void {
    this.samples++;
    if (this.srtt === null) {
      this.srtt = rttMs;
      this.rttvar = rttMs / 2;
      return;
    }
    this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - rttMs);
    this.srtt = 0.875 * this.srtt + 0.125 * rttMs;
  }

  get observed(): number {
    return this.samples;
  }

  /** How long to wait for the next answer before calling the port filtered. */
  timeoutMs(): number {
    if (this.srtt === null) return this.bounds.initialMs;
    const t = this.srtt + 4 * this.rttvar;
    return Math.round(Math.min(this.bounds.maxMs, Math.max(this.bounds.minMs, t)));
  }
}

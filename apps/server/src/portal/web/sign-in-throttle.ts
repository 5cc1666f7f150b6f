/**
 * Sign-in attempts per client address in a sliding minute, per server process (on top of the per-user lock-out
 * kept in the database, which holds across processes): slows a password spray across many accounts from one
 * address. In memory on purpose: it must cost nothing and may forget on restart.
 */
export class SignInThrottle {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Counts an attempt from `address`; false when it exceeds the limit (then it is not counted). */
  allow(address: string): boolean {
    const now = this.now();
    const recent = (this.attempts.get(address) ?? []).filter((t) => now - t < 60_000);
    if (recent.length >= this.perMinute) {
      this.attempts.set(address, recent);
      return false;
    }
    recent.push(now);
    this.attempts.set(address, recent);
    if (this.attempts.size > 10_000) this.forgetIdle(now);
    return true;
  }

  private forgetIdle(now: number): void {
    for (const [address, times] of this.attempts)
      if (times.every((t) => now - t >= 60_000)) this.attempts.delete(address);
  }
}

/**
 * The rate-limit counts this process last saw committed, per counter (bucket and window start): the quick read that
 * refuses a caller already over its limit reads them here instead of from the store
 * (docs/performance.md#caches-on-the-hot-path).
 * The store's counters stay the authority — every counted call is still counted there, and the settlement refuses
 * (uncharged) a call that the count it gets puts over the limit — so a count that lags behind another process's
 * writes only lets a call run that its settlement then refuses, exactly as a read racing a concurrent write did.
 * A count here is never ahead of the store: it is taken from counts the store returned after their commit.
 */
export class RateMirror {
  private readonly counts = new Map<string, { start: number; count: number }>();
  /** Most counters kept (each lives one window): beyond it, ended windows are dropped, then everything. */
  constructor(private readonly maxCounters = 50_000) {}

  /** The last committed count of a counter, or undefined when this process has not seen the window. */
  get(bucket: string, start: number): number | undefined {
    const c = this.counts.get(bucket);
    return c && c.start === start ? c.count : undefined;
  }

  /** A count the store returned for a counter (after its commit); a lower count than one already seen is ignored. */
  observe(bucket: string, start: number, count: number, nowMs: number): void {
    const c = this.counts.get(bucket);
    if (c && c.start === start) {
      if (count > c.count) c.count = count;
      return;
    }
    if (c && c.start > start) return;
    if (!c && this.counts.size >= this.maxCounters) this.prune(nowMs);
    this.counts.set(bucket, { start, count });
  }

  private prune(nowMs: number): void {
    // A bucket's key ends in its window length (`…:<ms>`): a counter whose window has ended is of no use.
    for (const [bucket, c] of this.counts) {
      const windowMs = Number(bucket.slice(bucket.lastIndexOf(":") + 1));
      if (!(c.start + windowMs > nowMs)) this.counts.delete(bucket);
    }
    if (this.counts.size >= this.maxCounters) this.counts.clear();
  }
}

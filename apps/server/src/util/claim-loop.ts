/**
 * The shape both the job worker and the webhook delivery loop have: a `claim` step run on a timer and on demand,
 * never two at once (a wake during a run schedules exactly one more), and the work it launched tracked so that a
 * stop can wait for it within a grace period and then abort what is left.
 */
export class ClaimLoop<K> {
  private readonly inFlight = new Map<K, { readonly controller: AbortController; readonly done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private claiming: Promise<void> | null = null;
  private again = false;
  private stopping = false;

  constructor(
    private readonly claim: () => Promise<void>,
    private readonly onClaimError: (err: unknown) => void,
    private readonly pollMs: number,
  ) {}

  /** Starts the timer (unref'd: it never holds the process open) and claims at once. */
  start(): void {
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Claims now, or right after the claim under way. */
  wake(): void {
    if (this.stopping) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claim()
      .catch(this.onClaimError)
      .finally(() => {
        this.claiming = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Asks for one more claim after the current one (a claim that saw work left behind a bound). */
  claimAgain(): void {
    this.again = true;
  }

  /** Runs `work` as in-flight item `key` (ignored if it is already in flight); claims again when it ends. */
  launch(key: K, work: (signal: AbortSignal) => Promise<void>, onError: (err: unknown) => void): void {
    if (this.inFlight.has(key)) return;
    const controller = new AbortController();
    const done = work(controller.signal)
      .catch(onError)
      .finally(() => {
        this.inFlight.delete(key);
        this.wake();
      });
    this.inFlight.set(key, { controller, done });
  }

  /** Keys of the work in flight. */
  keys(): K[] {
    return [...this.inFlight.keys()];
  }

  get size(): number {
    return this.inFlight.size;
  }

  /** Aborts one item in flight (its lease was lost to another worker). */
  abort(key: K): void {
    this.inFlight.get(key)?.controller.abort();
  }

  /** Stops claiming; waits up to `graceMs` for the work in flight, then aborts what is left and waits for it. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.claiming;
    const all = Promise.all([...this.inFlight.values()].map((f) => f.done));
    const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), graceMs).unref());
    if ((await Promise.race([all, timeout])) === "timeout")
      for (const f of this.inFlight.values()) f.controller.abort();
    await all;
  }
}

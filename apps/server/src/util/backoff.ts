/** Delay before retry number `attempt` (1-based): base × 2^(attempt−1), at most `capMs`. */
export function exponentialBackoffMs(attempt: number, baseMs: number, capMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), capMs);
}

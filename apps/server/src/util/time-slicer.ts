/** Awaited between steps of long work; lets other requests run when the work has held the event loop too long. */
export type Pace = () => Promise<void>;

/** A {@link Pace} that never yields (callers whose work is small, such as an external scan's few findings). */
export const noPause: Pace = () => Promise.resolve();

/**
 * A {@link Pace} that resolves at once while the current slice of synchronous work is under `budgetMs`, and
 * otherwise yields to the event loop (setImmediate: pending I/O runs first) and starts a new slice. A request such as
 * /healthz then waits at most about one slice, however long the whole work takes.
 */
export function timeSlicer(budgetMs = 4, now: () => number = () => performance.now()): Pace {
  let sliceStart = now();
  return async () => {
    if (now() - sliceStart < budgetMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = now();
  };
}

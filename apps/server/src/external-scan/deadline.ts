import { setMaxListeners } from "node:events";

/** Holds a combined signal's timeout signal (see signalWithin). */
const timeoutOf = new WeakMap<AbortSignal, AbortSignal>();

/** A signal that aborts when `parent` (if any) does or after `ms`, whichever comes first. */
export function signalWithin(parent: AbortSignal | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(Math.max(0, ms));
  const signal = AbortSignal.any([...(parent ? [parent] : []), timeout]);
  // Node (20 and later, nodejs/node#57736) holds AbortSignal.timeout's signal only weakly, from its timer and from
  // the combined signal: a garbage collection before the time is up dropped it, and the scan's budget never ran
  // out (a scan of an unresponsive site then ran to its IO timeouts, 8 s instead of 1.5 in a test under load). The
  // combined signal now holds it for as long as the combined signal itself is alive.
  timeoutOf.set(signal, timeout);
  // A check's IO operations each listen on it while in flight; many at once is normal, not a leak.
  setMaxListeners(0, signal);
  return signal;
}

/**
 * Settles with `work`, or with `onAbort()` as soon as `signal` aborts, whichever comes first. The abandoned
 * work keeps running until its own IO timeouts end it; its result or error is then ignored. This is what
 * lets the scan guarantee its budget even if an IO implementation ignores its signal.
 */
export function settleBefore<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => T): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.resolve(onAbort());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => resolve(onAbort());
    signal.addEventListener("abort", abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

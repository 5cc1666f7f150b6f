/**
 * The messages between the scanner and its probe helper process (JSON over the IPC channel). Both ends check every
 * message they receive with the tight validators below rather than zod: a scan exchanges thousands of batches of
 * hundreds of numbers, and these checks cost one pass over each array.
 *
 * Parent to helper:
 *   {t:"i", closed:[status…], local:[status…], refused, aborted, reuse, sweepMs, active, maxActive}
 *       status codes (host/tcp-wrap.ts), socket reuse, sweep period, sockets in flight (the rest of the probes
 *       wait in the helper, ready to go; each timeout raises it by one, up to maxActive)
 *   {t:"p", h:[new hosts…], b:[id, hostIndex, port, timeoutMs, …]}  probes; h extends the helper's host table
 *   {t:"c", ids:[…]}                                          cancel: close these probes, send nothing back
 *   {t:"s", q}                                                memory and CPU statistics
 * Helper to parent:
 *   {t:"ready"} · {t:"x", error} (cannot probe here; exits) · {t:"r", b:[id, outcome, rttMs, …]}
 *   · {t:"s", q, rss, maxRss, cpu}
 */

export interface HelperSettings {
  readonly t: "i";
  readonly closed: readonly number[];
  readonly local: readonly number[];
  readonly refused: number | null;
  readonly aborted: number | null;
  readonly reuse: boolean;
  readonly sweepMs: number;
  readonly active: number;
  readonly maxActive: number;
}

/** What the parent sends. */
export type ParentMessage =
  | HelperSettings
  | { readonly t: "p"; readonly h: readonly string[]; readonly b: readonly number[] }
  | { readonly t: "c"; readonly ids: readonly number[] }
  | { readonly t: "s"; readonly q: number };

/** What the helper sends back. */
export type HelperMessage =
  | { readonly t: "ready" }
  | { readonly t: "x"; readonly error: string }
  | { readonly t: "r"; readonly b: readonly number[] }
  | { readonly t: "s"; readonly q: number; readonly rss: number; readonly maxRss: number; readonly cpu: number };

/** Numbers per probe in a `p` batch (id, host index, port, timeout) and per answer in an `r` batch. */
export const PROBE_STRIDE = 4;
export const ANSWER_STRIDE = 3;

type Loose = Record<string, unknown>;

const isObject = (m: unknown): m is Loose => typeof m === "object" && m !== null && !Array.isArray(m);
const isFiniteNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isPositiveCount = (v: unknown): v is number => isCount(v) && v > 0;
const isStatusOrNull = (v: unknown): v is number | null => v === null || Number.isSafeInteger(v);

function isNumbers(v: unknown, stride: number, each: (value: unknown, column: number) => boolean): v is number[] {
  if (!Array.isArray(v) || v.length % stride !== 0) return false;
  for (let i = 0; i < v.length; i++) if (!each(v[i], i % stride)) return false;
  return true;
}

const isStatusList = (v: unknown): v is number[] => isNumbers(v, 1, (s) => Number.isSafeInteger(s));
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
const isPort = (v: unknown) => isCount(v) && (v as number) <= 65_535;

/** A parent's message, or null when it is not one (the helper ignores it). */
export function parseParentMessage(m: unknown): ParentMessage | null {
  if (!isObject(m)) return null;
  switch (m.t) {
    case "p":
      // Timeouts: any number; the helper treats one that is not positive as already due.
      return isStringList(m.h) &&
        isNumbers(m.b, PROBE_STRIDE, (v, c) => (c === 2 ? isPort(v) : c === 3 ? isFiniteNumber(v) : isCount(v)))
        ? (m as ParentMessage)
        : null;
    case "c":
      return isNumbers(m.ids, 1, isCount) ? (m as ParentMessage) : null;
    case "s":
      return isCount(m.q) ? (m as ParentMessage) : null;
    case "i":
      return isStatusList(m.closed) &&
        isStatusList(m.local) &&
        isStatusOrNull(m.refused) &&
        isStatusOrNull(m.aborted) &&
        typeof m.reuse === "boolean" &&
        isPositiveCount(m.sweepMs) &&
        isPositiveCount(m.active) &&
        isPositiveCount(m.maxActive)
        ? (m as ParentMessage)
        : null;
    default:
      return null;
  }
}

/** A helper's message, or null when it is not one (the parent drops a helper that sends one). */
export function parseHelperMessage(m: unknown): HelperMessage | null {
  if (!isObject(m)) return null;
  switch (m.t) {
    case "ready":
      return { t: "ready" };
    case "x":
      return typeof m.error === "string" ? { t: "x", error: m.error } : null;
    case "r":
      return isNumbers(m.b, ANSWER_STRIDE, (v, c) => (c === 2 ? isFiniteNumber(v) : isCount(v)))
        ? (m as HelperMessage)
        : null;
    case "s":
      return isCount(m.q) && isCount(m.rss) && isCount(m.maxRss) && isCount(m.cpu) ? (m as HelperMessage) : null;
    default:
      return null;
  }
}

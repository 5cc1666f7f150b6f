import type { EolCycle } from "./eol-json.js";

/**
 * End-of-life verdicts judged by the server on its current endoflife.date data, for products a scanner
 * identified. The scanner names the endoflife.date product id, the cycle its bundled data matched (empty when that
 * data did not know the cycle) and the version it saw; the server finds the cycle in fresher data and judges its
 * dates today. Same reading of dates as the scanner (an eol date is the last supported day; a documented, still
 * running extended-support phase counts as supported). Pure.
 */
export type EolStatus = "supported" | "eol" | "unknown";

export interface EolVerdict {
  readonly status: EolStatus;
  readonly cycle: string;
  readonly eol: string | null;
  readonly daysLeft: number | null;
  readonly inExtendedSupport: boolean;
}

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/**
 * The cycle for a scanner-reported product: the scanner's own cycle id when the server's data has it (cycle ids
 * are endoflife.date's on both sides, including Windows builds and SQL Server service packs the scanner worked
 * out), else the longest cycle id that prefixes the version at a component boundary (`1.28.0` → `1.28`).
 */
export function findCycle(cycles: readonly EolCycle[], scannerCycle: string, version: string): EolCycle | null {
  const wanted = scannerCycle.trim().toLowerCase();
  if (wanted !== "") {
    const same = cycles.find((c) => c.cycle === wanted);
    if (same) return same;
  }
  const v = version
    .trim()
    .toLowerCase()
    .replace(/^v(?=\d)/, "");
  let best: EolCycle | null = null;
  for (const c of cycles) {
    if (!v.startsWith(c.cycle)) continue;
    const next = v.charAt(c.cycle.length);
    if (next !== "" && /[\da-z]/.test(next)) continue;
    if (!best || c.cycle.length > best.cycle.length) best = c;
  }
  return best;
}

/** The verdict for `cycle` on `today` (UTC day). */
export function judgeCycle(cycle: EolCycle | null, today: Date): EolVerdict {
  if (!cycle) return { status: "unknown", cycle: "", eol: null, daysLeft: null, inExtendedSupport: false };
  const day = Math.floor(today.getTime() / DAY_MS);
  const eol = typeof cycle.eol === "string" ? cycle.eol : null;
  const base = { cycle: cycle.cycle, eol };
  if (cycle.eol === false) return { ...base, status: "supported", daysLeft: null, inExtendedSupport: false };
  if (cycle.eol === null) return { ...base, status: "unknown", daysLeft: null, inExtendedSupport: false };
  if (eol !== null && dayNumber(eol) >= day)
    return { ...base, status: "supported", daysLeft: dayNumber(eol) - day, inExtendedSupport: false };
  const extended = typeof cycle.extended === "string" ? cycle.extended : null;
  if (extended !== null && dayNumber(extended) >= day)
    return { ...base, status: "supported", daysLeft: dayNumber(extended) - day, inExtendedSupport: true };
  return { ...base, status: "eol", daysLeft: eol === null ? null : dayNumber(eol) - day, inExtendedSupport: false };
}

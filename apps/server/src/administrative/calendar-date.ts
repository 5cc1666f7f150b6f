import { z } from "zod";

/** A calendar date (YYYY-MM-DD) that exists: 2024-02-29 does, 2023-02-29 does not. */
export const CalendarDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD")
  .refine((d) => isRealDate(d), "not a date on the calendar");

function isRealDate(d: string): boolean {
  const [y, m, day] = d.split("-").map(Number) as [number, number, number];
  if (y < 1990 || y > 2200) return false;
  const t = new Date(Date.UTC(y, m - 1, day));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === day;
}

const DAY_MS = 86_400_000;

/** `date` plus `days` calendar days (UTC arithmetic: no time zone or daylight-saving shift can move a date). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The same day `years` later: "within 12 months" counted on the calendar, so a leap day does not move it. 29
 * February goes to 28 February of a common year (the earlier day: a deadline is never later than a year).
 */
export function addYears(date: string, years: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const target = y + years;
  const leap = (target % 4 === 0 && target % 100 !== 0) || target % 400 === 0;
  const day = m === 2 && d === 29 && !leap ? 28 : d;
  return `${String(target).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The calendar date of an instant, in UTC. */
export const dateOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The last day of the calendar year that holds `date`. */
export const yearEndOf = (date: string): string => `${date.slice(0, 4)}-12-31`;

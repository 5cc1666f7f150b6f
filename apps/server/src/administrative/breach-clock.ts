import type { HipaaControlId } from "@hcs/protocol";
import { addDays, daysBetween, yearEndOf } from "./calendar-date.js";

/** Who must be told of a breach of unsecured PHI (45 CFR 164.404, 164.406, 164.408). */
export type NotificationRecipient = "individuals" | "hhs" | "media";

/**
 * The state of one notification duty on a given day: not required; pending (due on a later or the same day);
 * overdue (due date passed, not sent); sent (on or before the due date); sent_late.
 */
export type NotificationStatus = "not_required" | "pending" | "overdue" | "sent" | "sent_late";

export interface NotificationDuty {
  readonly recipient: NotificationRecipient;
  readonly required: boolean;
  /** Last day the notice may be sent (null when not required). */
  readonly due_on: string | null;
  readonly sent_on: string | null;
  readonly status: NotificationStatus;
  /** Days left until due_on (negative: days overdue); null when not required or already sent. */
  readonly days_remaining: number | null;
  readonly basis: string;
  readonly controls: readonly HipaaControlId[];
}

export interface BreachClockInput {
  /** The first day the breach was known, or by exercising reasonable diligence would have been known (164.404(a)(2)). */
  readonly discovered_on: string;
  readonly individuals_affected: number;
  /** Affected individuals per State or jurisdiction of residence (two-letter codes). */
  readonly residents_by_state: Readonly<Record<string, number>>;
  /** Days a law enforcement official asked the practice to delay notice (164.412); they extend the 60-day clocks. */
  readonly law_enforcement_delay_days: number;
  readonly sent: {
    readonly individuals_on?: string | null;
    readonly hhs_on?: string | null;
    readonly media_on?: string | null;
  };
}

/** The 60 calendar days of 164.404(b), 164.406(b) and 164.408(b); and 60 days after year end for 164.408(c). */
export const NOTIFICATION_WINDOW_DAYS = 60;
/** More than this many residents of one State or jurisdiction require notice to prominent media (164.406(a)). */
export const MEDIA_THRESHOLD = 500;
/** At or above this many individuals, HHS is told with the individuals; below, in the annual log (164.408). */
export const HHS_IMMEDIATE_THRESHOLD = 500;

function statusOf(dueOn: string, sentOn: string | null, today: string): NotificationStatus {
  if (sentOn) return sentOn <= dueOn ? "sent" : "sent_late";
  return today <= dueOn ? "pending" : "overdue";
}

function duty(
  recipient: NotificationRecipient,
  dueOn: string | null,
  sentOn: string | null | undefined,
  today: string,
  basis: string,
  controls: readonly HipaaControlId[],
): NotificationDuty {
  const sent = sentOn ?? null;
  if (dueOn === null)
    return {
      recipient,
      required: false,
      due_on: null,
      sent_on: sent,
      status: "not_required",
      days_remaining: null,
      basis,
      controls,
    };
  const status = statusOf(dueOn, sent, today);
  return {
    recipient,
    required: true,
    due_on: dueOn,
    sent_on: sent,
    status,
    days_remaining: sent ? null : daysBetween(today, dueOn),
    basis,
    controls,
  };
}

/**
 * The notification clock of a breach of unsecured PHI, as dates computed from the discovery date (pure):
 * - individuals: without unreasonable delay and no later than 60 calendar days after discovery (164.404(b));
 * - HHS: 500 or more individuals — at the same time as the individuals, so within the same 60 days (164.408(b));
 *   fewer — in the annual log, no later than 60 days after the end of the calendar year of discovery (164.408(c)),
 *   which is 1 March, or 29 February when the next year is a leap year;
 * - media: when more than 500 residents of one State or jurisdiction are affected, within 60 days (164.406).
 * A law enforcement delay (164.412) moves the 60-day deadlines by the days of the delay; the annual log keeps its date.
 */
export function notificationClock(input: BreachClockInput, today: string): NotificationDuty[] {
  const delay = Math.max(0, input.law_enforcement_delay_days);
  const sixtyDays = addDays(input.discovered_on, NOTIFICATION_WINDOW_DAYS + delay);
  const large = input.individuals_affected >= HHS_IMMEDIATE_THRESHOLD;
  const annualLog = addDays(yearEndOf(input.discovered_on), NOTIFICATION_WINDOW_DAYS);
  const mediaStates = Object.entries(input.residents_by_state)
    .filter(([, n]) => n > MEDIA_THRESHOLD)
    .map(([s]) => s)
    .sort();
  return [
    duty(
      "individuals",
      input.individuals_affected > 0 ? sixtyDays : null,
      input.sent.individuals_on,
      today,
      input.individuals_affected > 0
        ? `written notice to each of the ${input.individuals_affected} individual(s) without unreasonable delay and no later than 60 calendar days after discovery (${input.discovered_on})${delay ? `, extended ${delay} day(s) at law enforcement's request` : ""}`
        : "no individual's PHI is known to be affected",
      ["164.404(a)", "164.404(b)", "164.404(c)", "164.404(d)"],
    ),
    duty(
      "hhs",
      large ? sixtyDays : input.individuals_affected > 0 ? annualLog : null,
      input.sent.hhs_on,
      today,
      large
        ? `${input.individuals_affected} individuals (500 or more): notify the Secretary through the HHS breach portal at the same time as the individuals`
        : input.individuals_affected > 0
          ? `fewer than 500 individuals: log the breach and submit it to the Secretary no later than 60 days after the end of ${input.discovered_on.slice(0, 4)}`
          : "no individual's PHI is known to be affected",
      large ? ["164.408(b)"] : ["164.408(c)"],
    ),
    duty(
      "media",
      mediaStates.length > 0 ? sixtyDays : null,
      input.sent.media_on,
      today,
      mediaStates.length > 0
        ? `more than 500 residents of ${mediaStates.join(", ")}: notice to prominent media outlets serving ${mediaStates.length > 1 ? "those States" : "that State"} within 60 calendar days of discovery`
        : "no State or jurisdiction has more than 500 affected residents",
      ["164.406"],
    ),
  ];
}

import { addDays, addYears } from "./calendar-date.js";

/** New workforce members are trained within this many days of hire (164.308(a)(5), 164.530(b)(2)(i)(B)). */
export const ON_HIRE_DAYS = 30;
/** Refresher interval: annual (the same day a year later), the period OCR resolution agreements expect. */
export const REFRESHER_YEARS = 1;

export interface RosterMember {
  readonly member_id: string;
  readonly name: string;
  readonly role: string;
  readonly hired_on: string;
  readonly terminated_on: string | null;
}
export interface Completion {
  readonly member_id: string;
  readonly course: string;
  readonly completed_on: string;
}

export type MemberTrainingState = "current" | "due" | "overdue";

export interface MemberTraining {
  readonly member_id: string;
  readonly name: string;
  readonly role: string;
  readonly hired_on: string;
  readonly last_completed_on: string | null;
  readonly due_on: string;
  readonly state: MemberTrainingState;
}

export interface TrainingSummary {
  readonly active_members: number;
  readonly current: number;
  readonly due: number;
  readonly overdue: number;
  /** Current members over active ones (1 when there are none). */
  readonly completion_rate: number;
  readonly members: MemberTraining[];
}

/**
 * Who is trained, due or overdue on `today` (pure): a member's training falls due ON_HIRE_DAYS after hire and then
 * a year after each completion; until the due date they are `due` (new hires) or `current`, after it
 * `overdue`. Members who left (terminated on or before today) are not counted.
 */
export function trainingSummary(
  roster: readonly RosterMember[],
  completions: readonly Completion[],
  today: string,
): TrainingSummary {
  const last = new Map<string, string>();
  for (const c of completions)
    if ((last.get(c.member_id) ?? "") < c.completed_on) last.set(c.member_id, c.completed_on);
  const members = roster
    .filter((m) => m.terminated_on === null || m.terminated_on > today)
    .map((m): MemberTraining => {
      const lastOn = last.get(m.member_id) ?? null;
      const dueOn = lastOn ? addYears(lastOn, REFRESHER_YEARS) : addDays(m.hired_on, ON_HIRE_DAYS);
      const state: MemberTrainingState = today > dueOn ? "overdue" : lastOn ? "current" : "due";
      return {
        member_id: m.member_id,
        name: m.name,
        role: m.role,
        hired_on: m.hired_on,
        last_completed_on: lastOn,
        due_on: dueOn,
        state,
      };
    })
    .sort((a, b) => a.due_on.localeCompare(b.due_on) || a.member_id.localeCompare(b.member_id));
  const count = (s: MemberTrainingState) => members.filter((m) => m.state === s).length;
  return {
    active_members: members.length,
    current: count("current"),
    due: count("due"),
    overdue: count("overdue"),
    completion_rate: members.length === 0 ? 1 : Math.round((count("current") / members.length) * 1000) / 1000,
    members,
  };
}

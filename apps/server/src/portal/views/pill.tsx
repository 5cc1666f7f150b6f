/** The colour of a record's state: full (in order), partial (needs attention soon), none (missing or late). */
const STATE_PILL: Record<string, string> = {
  current: "pill-full",
  expiring: "pill-partial",
  due: "pill-partial",
  out_of_date: "pill-partial",
  pending: "pill-partial",
  overdue: "pill-none",
  expired: "pill-none",
  missing: "pill-none",
  not_generated: "pill-none",
  sent: "pill-full",
  sent_late: "pill-partial",
  not_required: "pill-full",
};

export const Pill = ({ state }: { state: string }) => (
  <span class={`pill ${STATE_PILL[state] ?? "pill-none"}`}>{state.replace(/_/g, " ")}</span>
);

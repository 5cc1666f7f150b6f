/** The formats a report is rendered in (the operation's `format`, negotiated from `Accept`). */
export const REPORT_FORMATS = ["html", "pdf"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

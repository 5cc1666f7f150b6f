import {
  AUDIT_STATE_LABEL,
  AUDIT_STATE_MEANING,
  COVERAGE_LABEL,
  formatDate,
  formatDateTime,
  SOURCE_LABEL,
  STATE_COLOUR,
  STATE_LABEL,
} from "./format.js";
import type { ReportModel } from "./model.js";
import type { PdfLayout } from "./pdf-layout.js";
/* The PDF report's requirement, coverage and audit sections. */

export function requirements(l: PdfLayout, m: ReportModel): void {
  const r = m.requirements;
  l.heading("The 13 HIPAA requirements");
  l.paragraph(r.note);
  if (r.items.length === 0) return;
  l.table(
    [
      { header: "#", share: 0.4, align: "right" },
      { header: "Requirement", share: 3.2 },
      { header: "State", share: 1.2 },
      { header: "Evidence", share: 6.2 },
      { header: "Last verified", share: 1.4 },
    ],
    r.items.map((item) => [
      String(item.number),
      { text: `${item.title}\n${item.controls.join(", ")}` },
      { pill: STATE_LABEL[item.state], colour: STATE_COLOUR[item.state] },
      item.evidence
        .map(
          (e) =>
            `${e.label}: ${STATE_LABEL[e.state].toLowerCase()} (${e.detail})${e.findings.length > 0 ? ` [${e.findings.join(", ")}]` : ""}`,
        )
        .join("\n"),
      item.last_verified ? formatDate(item.last_verified) : { text: "never", muted: true },
    ]),
    { size: 7.5 },
  );
}

const AUDIT_COLOUR = { proved: "#15803d", pending: "#b45309", not_logged: "#64748b" } as const;

export function coverage(l: PdfLayout, m: ReportModel): void {
  const c = m.coverage;
  l.heading("Scan coverage and dates");
  l.table(
    [
      { header: "Scan", share: 3 },
      { header: "Dispatched", share: 2 },
      { header: "Started", share: 2 },
      { header: "Completed", share: 2 },
    ],
    [
      [
        { text: `Full scan ${m.job.id}`, mono: false },
        formatDateTime(m.job.created_at),
        m.job.started_at ? formatDateTime(m.job.started_at) : "—",
        formatDateTime(m.job.completed_at),
      ],
    ],
  );
  l.table(
    [
      { header: "Source", share: 1.3 },
      { header: "Coverage", share: 1 },
      { header: "Categories with data", share: 4 },
      { header: "Without data", share: 4 },
    ],
    c.sources.map((s) => [
      SOURCE_LABEL[s.source],
      COVERAGE_LABEL[s.status],
      s.with_data.join("; ") || "none",
      s.without_data.join("; ") || "none",
    ]),
  );
  if (c.hosts.length > 0) {
    l.table(
      [
        { header: "Scanner host", share: 2.5 },
        { header: "Phases assessed", share: 1.2, align: "right" },
        { header: "Expired", share: 0.9, align: "right" },
        { header: "Not assessed", share: 3.4 },
        { header: "Latest result", share: 2 },
      ],
      c.hosts.map((h) => [
        h.host,
        String(h.assessed_phases),
        String(h.expired_phases),
        h.not_assessed.join("; ") || "none",
        h.latest_result_at ? formatDateTime(h.latest_result_at) : "—",
      ]),
    );
  } else if (c.hosts_note) {
    l.paragraph(c.hosts_note, { size: 8.5, muted: true });
  }
  if (c.assessments.length > 0) {
    l.table(
      [
        { header: "Last assessed", share: 2 },
        { header: "Source", share: 1.3 },
        { header: "Subject", share: 4 },
      ],
      c.assessments.map((a) => [formatDateTime(a.assessed_at), SOURCE_LABEL[a.source], a.subject]),
    );
  }
}

export function audit(l: PdfLayout, m: ReportModel): void {
  const a = m.audit;
  l.heading("Audit proof references");
  l.paragraph(
    `Each scan this report rests on was logged as an event in HCS's append-only audit log (an RFC 9162 Merkle tree whose checkpoints are signed; ${
      a.checkpoint_size !== null
        ? `the latest signed checkpoint covers ${a.checkpoint_size} events`
        : "no checkpoint has been signed yet"
    }).`,
  );
  l.table(
    [
      { header: "Record", share: 3.6 },
      { header: "Logged", share: 1.8 },
      { header: "Event", share: 0.8, align: "right" },
      { header: "Leaf", share: 0.8, align: "right" },
      { header: "State", share: 2.1 },
      { header: "Proof", share: 2.6 },
    ],
    a.records.map((r) => [
      `${r.label}\n${r.resource}`,
      formatDateTime(r.at),
      r.event_id === null ? "—" : String(r.event_id),
      r.leaf_index === null ? "—" : String(r.leaf_index),
      { pill: AUDIT_STATE_LABEL[r.state], colour: AUDIT_COLOUR[r.state] },
      r.proof_path ?? "—",
    ]),
    { size: 7.5 },
  );
  l.paragraph(AUDIT_STATE_MEANING, { size: 8, muted: true });
  l.subheading("How to verify");
  for (const [i, step] of a.how_to_verify.entries()) l.paragraph(`${i + 1}. ${step}`, { size: 8.5, indent: 6 });
}

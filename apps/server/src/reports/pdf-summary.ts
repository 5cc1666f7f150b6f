import { SEVERITIES } from "@hcs/protocol";
import {
  formatDate,
  formatDateTime,
  GRADE_COLOUR,
  GRADE_MEANING,
  SEVERITY_COLOUR,
  SEVERITY_LABEL,
  SOURCE_LABEL,
  trendScale,
} from "./format.js";
import type { ReportModel } from "./model.js";
import { ACCENT, FONT, INK, LINE, MUTED, type PdfLayout } from "./pdf-layout.js";

/* The PDF report's executive summary (grade, headline, caps, trend chart, fix-first) and category results. */

function trendChart(l: PdfLayout, m: ReportModel, x: number, y: number, w: number, h: number): void {
  const { doc } = l;
  const points = m.summary.trend.points;
  const n = points.length;
  const px = (i: number) => (n === 1 ? x + w / 2 : x + 18 + (i * (w - 24)) / (n - 1));
  const scale = trendScale(points.map((p) => p.score));
  const py = (s: number) => y + 4 + ((100 - s) * (h - 18)) / (100 - scale.floor);
  for (const band of scale.bands) {
    doc
      .moveTo(x + 16, py(band))
      .lineTo(x + w, py(band))
      .lineWidth(0.4)
      .dash(2, { space: 2 })
      .strokeColor(LINE)
      .stroke();
    doc.undash();
    doc
      .font(FONT.regular)
      .fontSize(6)
      .fillColor(MUTED)
      .text(String(band), x, py(band) - 3, { width: 13, align: "right" });
  }
  if (n > 1) {
    doc.moveTo(px(0), py(points[0]!.score));
    for (const [i, p] of points.entries()) if (i > 0) doc.lineTo(px(i), py(p.score));
    doc.lineWidth(1.5).strokeColor(ACCENT).stroke();
  }
  for (const [i, p] of points.entries()) doc.circle(px(i), py(p.score), 2.6).fill(GRADE_COLOUR[p.grade]);
  const first = points[0];
  const last = points.at(-1);
  doc.font(FONT.regular).fontSize(6).fillColor(MUTED);
  if (first) doc.text(formatDate(first.at), x + 16, y + h - 9, { lineBreak: false });
  if (last && n > 1) doc.text(formatDate(last.at), x + w - 50, y + h - 9, { width: 50, align: "right" });
}

export function summary(l: PdfLayout, m: ReportModel): void {
  const { doc } = l;
  const s = m.summary;
  l.heading("Executive summary");
  const top = doc.y;
  doc.roundedRect(l.left, top, 96, 96, 8).fill(GRADE_COLOUR[s.grade]);
  doc
    .font(FONT.bold)
    .fontSize(54)
    .fillColor("#ffffff")
    .text(s.grade, l.left, top + 12, { width: 96, align: "center" });
  doc
    .font(FONT.regular)
    .fontSize(11)
    .text(`${s.score} / 100`, l.left, top + 74, { width: 96, align: "center" });
  const x = l.left + 112;
  const w = l.width - 112;
  doc.font(FONT.bold).fontSize(11).fillColor(INK).text(s.headline, x, top, { width: w });
  doc
    .font(FONT.regular)
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(
      `${GRADE_MEANING[s.grade]}. Scored ${formatDateTime(s.scan_date)} with scoring model ${s.scoring_version}.`,
      x,
      doc.y + 4,
      { width: w },
    );
  let px = x;
  const py = doc.y + 6;
  for (const sev of SEVERITIES)
    px += l.pill(`${s.findings_by_severity[sev]} ${SEVERITY_LABEL[sev]}`, SEVERITY_COLOUR[sev], px, py) + 4;
  doc.y = Math.max(top + 104, py + 20);
  l.paragraph(s.statement, { size: 9 });
  if (s.newer) {
    l.subheading("A newer grade exists");
    l.paragraph(s.newer.statement, { size: 9 });
  }

  if (s.caps.length > 0) {
    l.subheading("Grade caps: whatever the average, these findings limit the grade");
    for (const c of s.caps) l.paragraph(`At most ${c.max_grade}: ${c.reason}`, { indent: 10 });
  }
  l.ensureSpace(120);
  l.subheading("Trend");
  const chartTop = doc.y;
  doc
    .font(FONT.regular)
    .fontSize(9.5)
    .fillColor(INK)
    .text(s.trend.sentence, l.left, chartTop, { width: l.width * 0.42 });
  doc
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      `${s.trend.points.length} most recent grade${s.trend.points.length === 1 ? "" : "s"} up to this scan.`,
      l.left,
      doc.y + 4,
      { width: l.width * 0.42 },
    );
  trendChart(l, m, l.left + l.width * 0.48, chartTop, l.width * 0.52, 100);
  doc.y = chartTop + 108;

  if (s.fix_first.length > 0) {
    l.subheading("Fix first");
    l.table(
      [
        { header: "Ref", share: 0.7 },
        { header: "Severity", share: 1.1 },
        { header: "Finding", share: 8 },
      ],
      s.fix_first.map((f) => [
        { text: f.ref, bold: true },
        { pill: SEVERITY_LABEL[f.severity], colour: SEVERITY_COLOUR[f.severity] },
        f.title,
      ]),
    );
  }
}

export function categories(l: PdfLayout, m: ReportModel): void {
  const { doc } = l;
  l.heading("Results by category");
  l.table(
    [
      { header: "Category", share: 5 },
      { header: "Source", share: 1.6 },
      { header: "Weight", share: 1, align: "right" },
      { header: "Score", share: 1, align: "right" },
      { header: "Open findings", share: 3.2 },
    ],
    m.categories.map((c) => [
      c.title,
      SOURCE_LABEL[c.source],
      String(c.weight),
      c.score === null ? { text: "no data", muted: true } : { text: String(c.score), bold: true },
      SEVERITIES.filter((s) => c.findings[s] > 0)
        .map((s) => `${c.findings[s]} ${SEVERITY_LABEL[s].toLowerCase()}`)
        .join(", ") || "none",
    ]),
  );
  // Score bars: one line per category that has data.
  const scored = m.categories.filter((c) => c.score !== null);
  l.ensureSpace(scored.length * 14 + 10);
  for (const c of scored) {
    const y = doc.y;
    doc
      .font(FONT.regular)
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(c.title, l.left, y, { width: l.width * 0.45, height: 9, ellipsis: true });
    const bx = l.left + l.width * 0.47;
    const bw = l.width * 0.45;
    doc.rect(bx, y + 1, bw, 7).fill("#e2e8f0");
    const colour =
      c.score! >= 90
        ? "#15803d"
        : c.score! >= 80
          ? "#4d7c0f"
          : c.score! >= 70
            ? "#b45309"
            : c.score! >= 60
              ? "#c2410c"
              : "#b91c1c";
    if (c.score! > 0) doc.rect(bx, y + 1, (bw * c.score!) / 100, 7).fill(colour);
    doc
      .font(FONT.bold)
      .fontSize(7.5)
      .fillColor(INK)
      .text(String(c.score), bx + bw + 6, y, { lineBreak: false });
    doc.y = y + 13;
  }
  l.paragraph(
    "Overall score = the weighted average of the categories with data; categories without data are listed under Scan coverage.",
    { size: 8, muted: true },
  );
}

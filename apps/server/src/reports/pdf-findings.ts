import { formatDate, SEVERITY_COLOUR, SEVERITY_LABEL, SOURCE_LABEL } from "./format.js";
import type { ReportFinding, ReportModel } from "./model.js";
import { FONT, INK, LINE, MUTED, type PdfLayout } from "./pdf-layout.js";

/* The PDF report's findings: each kept whole on a page when it fits, its evidence as a compact table. */

/** The words of a finding's block, shared by its measure and its drawing. */
function findingTexts(f: ReportFinding) {
  return {
    facts: `${SOURCE_LABEL[f.source]} · ${f.category_title}${f.host ? ` · host ${f.host}` : ""} · first seen ${formatDate(f.first_seen)}, last seen ${formatDate(f.last_seen)}`,
    cap: f.cap ? `Caps the grade at ${f.cap.max_grade}: ${f.cap.reason}` : null,
    fix: `How to fix: ${f.remediation}`,
    controls: `HIPAA controls (45 CFR): ${f.controls
      .map((c) => `${c.id} ${c.title}${c.requirement ? ` (${c.requirement})` : ""}`)
      .join("; ")}`,
  };
}

/** About how tall a finding's block is (measured with the fonts it is drawn in; spacing rounded up). */
function findingHeight(l: PdfLayout, f: ReportFinding): number {
  const { doc } = l;
  const t = findingTexts(f);
  const h = (text: string, font: string, size: number, width = l.width) =>
    doc.font(font).fontSize(size).heightOfString(text, { width });
  const evidence = f.evidence.reduce(
    (n, e) =>
      n +
      Math.max(
        h(e.label, FONT.regular, 7.5, (l.width * 1.3) / 5.3 - 5),
        h(e.value, FONT.regular, 7.5, (l.width * 4) / 5.3 - 5),
      ) +
      5,
    0,
  );
  return (
    h(f.title, FONT.bold, 10.5, l.width - 90) +
    h(t.facts, FONT.regular, 7.5) +
    h(f.detail, FONT.regular, 9) +
    (t.cap ? h(t.cap, FONT.bold, 9) : 0) +
    evidence +
    h(t.fix, FONT.regular, 9, l.width - 16) +
    h(t.controls, FONT.regular, 8) +
    70
  );
}

function finding(l: PdfLayout, f: ReportFinding): void {
  const { doc } = l;
  const t = findingTexts(f);
  // A finding that fits on a page is kept whole; a longer one starts where at least its heading and detail fit.
  const height = findingHeight(l, f);
  const page = l.bottom - doc.page.margins.top;
  l.ensureSpace(height <= page ? height : 110);
  const y = doc.y;
  doc
    .font(FONT.bold)
    .fontSize(9)
    .fillColor(MUTED)
    .text(f.ref, l.left, y + 1, { lineBreak: false });
  const pw = l.pill(SEVERITY_LABEL[f.severity], SEVERITY_COLOUR[f.severity], l.left + 30, y);
  doc
    .font(FONT.bold)
    .fontSize(10.5)
    .fillColor(INK)
    .text(f.title, l.left + 36 + pw, y, { width: l.width - 36 - pw });
  l.paragraph(t.facts, { size: 7.5, muted: true });
  l.paragraph(f.detail, { size: 9 });
  if (t.cap) l.paragraph(t.cap, { size: 9, bold: true });
  if (f.evidence.length > 0) {
    l.paragraph("Evidence", { size: 7.5, bold: true, muted: true });
    doc.moveUp(0.2);
    l.table(
      [
        { header: "Evidence", share: 1.3 },
        { header: "", share: 4 },
      ],
      f.evidence.map((e) => [{ text: e.label, muted: true }, e.value]),
      { size: 7.5, header: false, pad: 2.5 },
    );
    doc.moveUp(0.4);
  } else {
    l.paragraph("Evidence: the check found nothing to show (the record or setting is absent).", {
      size: 8,
      muted: true,
    });
  }
  // The fix, in a tinted box with a green rule, kept on one page.
  doc.font(FONT.regular).fontSize(9);
  const fixText = t.fix;
  const fh = doc.heightOfString(fixText, { width: l.width - 16 }) + 8;
  l.ensureSpace(fh + 4);
  const fy = doc.y;
  doc.rect(l.left, fy, l.width, fh).fill("#ecfdf5");
  doc.rect(l.left, fy, 3, fh).fill("#15803d");
  doc.fillColor(INK).text(fixText, l.left + 9, fy + 4, { width: l.width - 16 });
  doc.y = fy + fh + 4;
  l.paragraph(t.controls, { size: 8, muted: true });
  const ry = doc.y + 2;
  doc
    .moveTo(l.left, ry)
    .lineTo(l.left + l.width, ry)
    .lineWidth(0.5)
    .strokeColor(LINE)
    .stroke();
  doc.y = ry + 8;
}

export function findings(l: PdfLayout, m: ReportModel): void {
  l.heading(`Findings (${m.summary.total_findings})`);
  if (m.findings.length === 0) l.paragraph("No open findings: every check that ran passed.");
  else
    l.paragraph("Every open finding of the practice at the time of this scan, most severe first.", {
      muted: true,
      size: 8.5,
    });
  for (const f of m.findings) finding(l, f);
}

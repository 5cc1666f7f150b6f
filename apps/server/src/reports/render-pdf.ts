import PDFDocument from "pdfkit";
import { formatDate, formatDateTime } from "./format.js";
import type { ReportModel } from "./model.js";
import { findings } from "./pdf-findings.js";
import { ACCENT, FONT, INK, LINE, MUTED, PdfLayout } from "./pdf-layout.js";
import { audit, coverage, requirements } from "./pdf-sections.js";
import { categories, summary } from "./pdf-summary.js";

/*
 * The PDF report, laid out from the report model with pdfkit and its standard fonts (no browser, no font files):
 * the same sections as the HTML report, US Letter, a running header and a footer with page numbers on every page.
 */

function masthead(l: PdfLayout, m: ReportModel): void {
  const { doc } = l;
  doc
    .font(FONT.regular)
    .fontSize(8)
    .fillColor(MUTED)
    .text("HCS · HEALTHCARE COMPLIANCE SERVICE", l.left, doc.y, { characterSpacing: 1 });
  doc
    .font(FONT.bold)
    .fontSize(22)
    .fillColor(ACCENT)
    .text("HIPAA compliance report", l.left, doc.y + 2);
  doc
    .font(FONT.bold)
    .fontSize(12)
    .fillColor(INK)
    .text(m.practice.name, l.left, doc.y + 2, { width: l.width });
  doc
    .font(FONT.regular)
    .fontSize(9)
    .fillColor(MUTED)
    .text(
      `NPI ${m.practice.npi} · scan completed ${formatDateTime(m.job.completed_at)} · report generated ${formatDateTime(m.generated_at)}`,
      l.left,
      doc.y + 2,
      { width: l.width },
    );
  const y = doc.y + 6;
  doc
    .moveTo(l.left, y)
    .lineTo(l.left + l.width, y)
    .lineWidth(3)
    .strokeColor(ACCENT)
    .stroke();
  doc.y = y + 6;
}

/** The running header and the footer with page numbers, drawn on every page once the page count is known. */
function headersAndFooters(l: PdfLayout, m: ReportModel): void {
  const { doc } = l;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const { margins } = doc.page;
    const saved = margins.bottom;
    margins.bottom = 0; // writing inside the margins must not start a new page
    const w = doc.page.width - margins.left - margins.right;
    doc.font(FONT.regular).fontSize(7).fillColor(MUTED);
    if (i > range.start) {
      doc.text(`HIPAA compliance report · ${m.practice.name} · NPI ${m.practice.npi}`, margins.left, 26, {
        width: w * 0.7,
        height: 9,
        ellipsis: true,
      });
      doc.text(`Scan of ${formatDate(m.job.completed_at)}`, margins.left + w * 0.7, 26, {
        width: w * 0.3,
        align: "right",
      });
      doc
        .moveTo(margins.left, 37)
        .lineTo(margins.left + w, 37)
        .lineWidth(0.5)
        .strokeColor(LINE)
        .stroke();
    }
    const fy = doc.page.height - 34;
    doc
      .moveTo(margins.left, fy - 6)
      .lineTo(margins.left + w, fy - 6)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    doc.font(FONT.regular).fontSize(7).fillColor(MUTED);
    doc.text(
      `Job ${m.job.id} · generated ${formatDateTime(m.generated_at)} · no patient information`,
      margins.left,
      fy,
      {
        width: w * 0.75,
        height: 9,
        ellipsis: true,
      },
    );
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, margins.left + w * 0.75, fy, {
      width: w * 0.25,
      align: "right",
    });
    margins.bottom = saved;
  }
}

/** Lays the report model out as a paginated PDF (US Letter) and returns its bytes. */
export function renderReportPdf(m: ReportModel): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "LETTER",
    margins: { top: 50, bottom: 52, left: 48, right: 48 },
    bufferPages: true,
    info: {
      Title: `HIPAA compliance report: ${m.practice.name} (NPI ${m.practice.npi})`,
      Author: "HCS — Healthcare Compliance Service",
      Subject: `Full scan ${m.job.id}, completed ${m.job.completed_at}`,
      CreationDate: new Date(m.generated_at),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const l = new PdfLayout(doc);
  masthead(l, m);
  summary(l, m);
  categories(l, m);
  requirements(l, m);
  findings(l, m);
  coverage(l, m);
  audit(l, m);
  headersAndFooters(l, m);
  doc.end();
  return done;
}

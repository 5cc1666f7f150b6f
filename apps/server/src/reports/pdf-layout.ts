import type PDFDocument from "pdfkit";

/**
 * The PDF report's layout primitives over pdfkit (standard fonts only): flowing text that keeps blocks together,
 * coloured pills, and tables whose rows never split across a page and whose header repeats on every page.
 */

type Doc = InstanceType<typeof PDFDocument>;

export const FONT = { regular: "Helvetica", bold: "Helvetica-Bold", mono: "Courier" } as const;
export const INK = "#0f172a";
export const MUTED = "#475569";
export const LINE = "#cbd5e1";
export const SOFT = "#f1f5f9";
export const ACCENT = "#1e3a8a";

/** One table cell: text, optionally bold or muted, or a pill (a coloured label). */
export type Cell =
  | string
  | { readonly text: string; readonly bold?: boolean; readonly muted?: boolean; readonly mono?: boolean }
  | { readonly pill: string; readonly colour: string };

export interface Column {
  readonly header: string;
  /** Share of the table's width (the shares are normalised). */
  readonly share: number;
  readonly align?: "left" | "right";
}

/** Padding inside a cell, points (a compact table — a finding's evidence — uses less). */
const CELL_PAD = 4;
const BODY_SIZE = 8.5;

export class PdfLayout {
  constructor(readonly doc: Doc) {}

  get left(): number {
    return this.doc.page.margins.left;
  }
  get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }
  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensureSpace(height: number): void {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  heading(text: string): void {
    this.ensureSpace(60);
    const { doc } = this;
    doc.moveDown(0.8);
    doc.font(FONT.bold).fontSize(14).fillColor(ACCENT).text(text, this.left, doc.y, { width: this.width });
    const y = doc.y + 2;
    doc
      .moveTo(this.left, y)
      .lineTo(this.left + this.width, y)
      .lineWidth(1.2)
      .strokeColor(ACCENT)
      .stroke();
    doc.y = y + 8;
  }

  subheading(text: string): void {
    this.ensureSpace(40);
    this.doc.moveDown(0.4);
    this.doc.font(FONT.bold).fontSize(10.5).fillColor(INK).text(text, this.left, this.doc.y, { width: this.width });
    this.doc.moveDown(0.2);
  }

  paragraph(text: string, o: { size?: number; muted?: boolean; bold?: boolean; indent?: number } = {}): void {
    const { doc } = this;
    doc
      .font(o.bold ? FONT.bold : FONT.regular)
      .fontSize(o.size ?? 9.5)
      .fillColor(o.muted ? MUTED : INK)
      .text(text, this.left + (o.indent ?? 0), doc.y, { width: this.width - (o.indent ?? 0) });
    doc.moveDown(0.3);
  }

  /** A rounded coloured label at (x, y); returns its width. */
  pill(text: string, colour: string, x: number, y: number, size = 7.5): number {
    const { doc } = this;
    doc.font(FONT.bold).fontSize(size);
    const w = doc.widthOfString(text) + 10;
    doc.roundedRect(x, y, w, size + 5, (size + 5) / 2).fill(colour);
    doc.fillColor("#ffffff").text(text, x + 5, y + 2.6, { lineBreak: false });
    doc.fillColor(INK);
    return w;
  }

  private cellText(cell: Cell): string {
    return typeof cell === "string" ? cell : "pill" in cell ? cell.pill : cell.text;
  }

  private cellFont(cell: Cell): string {
    if (typeof cell === "string") return FONT.regular;
    if ("pill" in cell) return FONT.bold;
    return cell.mono ? FONT.mono : cell.bold ? FONT.bold : FONT.regular;
  }

  private rowHeight(cells: readonly Cell[], widths: readonly number[], size: number, pad: number): number {
    const { doc } = this;
    let h = 0;
    cells.forEach((cell, i) => {
      doc.font(this.cellFont(cell)).fontSize(size);
      const text = this.cellText(cell);
      const inner = widths[i]! - 2 * pad;
      h = Math.max(
        h,
        typeof cell !== "string" && "pill" in cell ? size + 5 : doc.heightOfString(text || " ", { width: inner }),
      );
    });
    return h + 2 * pad;
  }

  private drawRow(
    cells: readonly Cell[],
    cols: readonly Column[],
    widths: readonly number[],
    size: number,
    pad: number,
    header: boolean,
  ) {
    const { doc } = this;
    const h = this.rowHeight(cells, widths, size, pad);
    const y = doc.y;
    if (header) doc.rect(this.left, y, this.width, h).fill(SOFT);
    let x = this.left;
    cells.forEach((cell, i) => {
      const inner = widths[i]! - 2 * pad;
      if (typeof cell !== "string" && "pill" in cell) {
        this.pill(cell.pill, cell.colour, x + pad, y + pad - 1, size - 1);
      } else {
        const muted = typeof cell !== "string" && cell.muted;
        doc
          .font(header ? FONT.bold : this.cellFont(cell))
          .fontSize(size)
          .fillColor(muted ? MUTED : INK)
          .text(this.cellText(cell), x + pad, y + pad, { width: inner, align: cols[i]!.align ?? "left" });
      }
      x += widths[i]!;
    });
    doc
      .moveTo(this.left, y + h)
      .lineTo(this.left + this.width, y + h)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    doc.y = y + h;
  }

  /**
   * A table: each row is kept whole on one page; when the next row does not fit, a new page starts and the header
   * row is drawn again, so every page of a long table says what its columns are.
   */
  table(
    cols: readonly Column[],
    rows: readonly (readonly Cell[])[],
    o: { size?: number; header?: boolean; pad?: number } = {},
  ): void {
    const size = o.size ?? BODY_SIZE;
    const pad = o.pad ?? CELL_PAD;
    const total = cols.reduce((n, c) => n + c.share, 0);
    const widths = cols.map((c) => (c.share / total) * this.width);
    const header = o.header === false ? null : cols.map((c) => c.header);
    const headerHeight = header ? this.rowHeight(header, widths, size, pad) : 0;
    const first = rows[0];
    this.ensureSpace(headerHeight + (first ? this.rowHeight(first, widths, size, pad) : 0));
    if (header) this.drawRow(header, cols, widths, size, pad, true);
    for (const row of rows) {
      const h = this.rowHeight(row, widths, size, pad);
      if (this.doc.y + h > this.bottom) {
        this.doc.addPage();
        if (header) this.drawRow(header, cols, widths, size, pad, true);
      }
      this.drawRow(row, cols, widths, size, pad, false);
    }
    this.doc.moveDown(0.6);
  }
}

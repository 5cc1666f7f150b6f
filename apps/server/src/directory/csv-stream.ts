import { FeedError } from "../intel/feed-error.js";

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** One record as the tokenizer hands it over; valid only during the callback (its array is reused). */
export interface CsvStreamRecord {
  /** The values of the wanted columns by column index; columns not wanted are left undefined (never decoded). */
  readonly fields: readonly (string | undefined)[];
  /** How many fields the record had. */
  readonly count: number;
  /** 1-based record number in the file (the header is 1). */
  readonly row: number;
  /** Byte offset just after the record's line break: where a resumed read starts. */
  readonly end: number;
}

export interface CsvStreamOptions {
  /** Which column indexes to decode; null: every column (the header). */
  readonly wanted: ReadonlySet<number> | null;
  /** A record longer than this is refused (a hostile or broken file cannot grow the buffer without bound). */
  readonly maxRecordBytes: number;
  /** Byte offset of the first byte pushed (a resumed read starts mid-file) and the record number before it. */
  readonly startOffset?: number;
  readonly rowsBefore?: number;
}

/**
 * An RFC 4180 tokenizer over a byte stream, for files far larger than memory: chunks are pushed as they are read and
 * each complete record is handed to the callback at once, with the byte offset where it ends. Only the wanted
 * columns are decoded (the NPPES file has 330 and the directory reads about 50), so the cost per record is mostly
 * finding its separators. Quoted fields may hold commas, doubled quotes and line breaks; records end at LF or CRLF;
 * blank lines are skipped. Memory is the current chunk plus one partial record.
 */
export class CsvByteStream {
  private leftover: Buffer | null = null;
  /** Absolute offset of the first byte of `leftover` (or of the next chunk when there is none). */
  private offset: number;
  private row: number;
  private readonly values: (string | undefined)[] = [];
  private readonly record: { fields: (string | undefined)[]; count: number; row: number; end: number };
  /** The wanted columns as flags by index (a typed-array read per field, not a Set lookup); null: every column. */
  private readonly wants: Uint8Array | null;

  constructor(private readonly options: CsvStreamOptions) {
    this.wants = options.wanted ? new Uint8Array(Math.max(0, ...options.wanted) + 1) : null;
    for (const i of options.wanted ?? []) this.wants![i] = 1;
    this.offset = options.startOffset ?? 0;
    this.row = options.rowsBefore ?? 0;
    this.record = { fields: this.values, count: 0, row: 0, end: 0 };
  }

  /** Records completed by this chunk, in order. */
  push(chunk: Buffer, onRecord: (record: CsvStreamRecord) => void): void {
    const buf = this.leftover ? Buffer.concat([this.leftover, chunk]) : chunk;
    const consumed = this.parse(buf, false, onRecord);
    this.offset += consumed;
    this.leftover = consumed < buf.length ? buf.subarray(consumed) : null;
    if (this.leftover && this.leftover.length > this.options.maxRecordBytes)
      throw new FeedError(
        "feed_malformed",
        `row ${this.row + 1}: a record longer than ${this.options.maxRecordBytes} bytes (an unterminated quote?)`,
        { row: this.row + 1 },
      );
  }

  /** The last record, when the file does not end with a line break. */
  end(onRecord: (record: CsvStreamRecord) => void): void {
    if (!this.leftover) return;
    const buf = this.leftover;
    this.leftover = null;
    this.offset += this.parse(buf, true, onRecord);
  }

  /** Parses whole records from `buf`; returns the bytes consumed (up to the end of the last complete record). */
  private parse(buf: Buffer, final: boolean, onRecord: (record: CsvStreamRecord) => void): number {
    const n = buf.length;
    const wants = this.wants;
    const values = this.values;
    let start = 0;
    let i = 0;
    records: while (i < n) {
      // A blank line is not a record.
      if (buf[i] === LF) {
        start = ++i;
        continue;
      }
      if (buf[i] === CR) {
        if (i + 1 >= n && !final) break;
        if (buf[i + 1] === LF) {
          i += 2;
          start = i;
          continue;
        }
      }
      let field = 0;
      values.length = 0;
      // One record: fields until a line break.
      for (;;) {
        let value: string | undefined;
        const want = wants === null || wants[field] === 1;
        if (buf[i] === QUOTE) {
          const open = i + 1;
          let j = open;
          let escaped = false;
          let close = -1;
          while (close === -1) {
            const q = buf.indexOf(QUOTE, j);
            if (q === -1 || (q + 1 >= n && !final)) break;
            if (buf[q + 1] === QUOTE) {
              escaped = true;
              j = q + 2;
            } else close = q;
          }
          if (close === -1) {
            if (!final) break records;
            throw new FeedError(
              "feed_malformed",
              `row ${this.row + 1}, field ${field + 1}: a quoted field never closes (truncated file?)`,
              { row: this.row + 1 },
            );
          }
          if (want) {
            value = buf.toString("utf8", open, close);
            if (escaped) value = value.replaceAll('""', '"');
          }
          i = close + 1;
          const c = buf[i];
          if (i < n && c !== COMMA && c !== LF && !(c === CR && buf[i + 1] === LF)) {
            if (c === CR && i + 1 >= n && !final) break records;
            throw new FeedError(
              "feed_malformed",
              `row ${this.row + 1}, field ${field + 1}: text after a closing quote (a quote inside a field must be doubled)`,
              { row: this.row + 1 },
            );
          }
        } else {
          let j = i;
          while (j < n) {
            const c = buf[j]!;
            if (c === COMMA || c === LF || (c === CR && buf[j + 1] === LF)) break;
            j++;
          }
          // The field may go on in the next chunk (or a CR may be the first half of a CRLF).
          if ((j >= n || (buf[j] === CR && j + 1 >= n)) && !final) break records;
          if (want) value = buf.toString("utf8", i, j);
          i = j;
        }
        values[field] = value;
        field++;
        const c = buf[i];
        if (c === COMMA) {
          i++;
          if (i >= n && !final) break records;
          continue;
        }
        if (c === CR) i++;
        if (i < n) i++; // the LF
        break;
      }
      start = i;
      this.row++;
      const r = this.record;
      r.count = field;
      r.row = this.row;
      r.end = this.offset + start;
      onRecord(r);
    }
    return start;
  }
}

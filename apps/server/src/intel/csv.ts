import { FeedError } from "./feed-error.js";

/** One CSV record with the 1-based record number it had in the file (the header is record 1). */
export interface CsvRecord {
  readonly row: number;
  readonly fields: string[];
}

/**
 * RFC 4180 records of a CSV text. Records end at LF or CRLF; a field in double quotes may hold commas, quotes
 * (doubled) and line breaks (the breach portal's descriptions do). A lone CR inside a field is kept as content:
 * the archive export carries MySQL-escaped breaks (`\<CR>`) in unquoted descriptions, and ending the record there
 * would shift every later column. Blank lines are skipped. An unterminated quote is an error naming the record and
 * field where it opened (a truncated download). Linear in the input; never recursive.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // byte-order mark of spreadsheet exports
  let row = 0;
  while (i < n) {
    row++;
    const fields: string[] = [];
    let endOfRecord = false;
    while (!endOfRecord) {
      let value = "";
      if (text.charCodeAt(i) === 34 /* " */) {
        const openedAt = i;
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q === -1) {
            throw new FeedError(
              "feed_malformed",
              `row ${row}, field ${fields.length + 1}: a quoted field opened at offset ${openedAt} never closes (truncated file?)`,
              { row },
            );
          }
          value += text.slice(i, q);
          if (text.charCodeAt(q + 1) === 34) {
            value += '"';
            i = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        // After a closing quote only a separator or the end of the record may follow.
        const c = text.charCodeAt(i);
        if (i < n && c !== 44 && c !== 10 && !(c === 13 && text.charCodeAt(i + 1) === 10)) {
          throw new FeedError(
            "feed_malformed",
            `row ${row}, field ${fields.length + 1}: text after a closing quote (a quote inside a field must be doubled)`,
            { row },
          );
        }
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === 44 || c === 10 || (c === 13 && text.charCodeAt(j + 1) === 10)) break;
          j++;
        }
        value = text.slice(i, j);
        i = j;
      }
      fields.push(value);
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        continue;
      }
      if (c === 13) i++;
      if (i < n) i++; // the LF
      endOfRecord = true;
    }
    if (fields.length === 1 && fields[0] === "") {
      row--; // a blank line is not a record
      continue;
    }
    records.push({ row, fields });
  }
  return records;
}

/**
 * The training roster CSV (docs/administrative.md, "Training"): a header line naming the columns, in any order —
 * member_id, name, role, hired_on required; terminated_on, course, completed_on optional — then one row per member
 * or per completion (a member with several completions repeats its member columns). RFC 4180 quoting: a field in
 * double quotes may hold commas, line breaks and doubled quotes. Pure; errors name the line.
 */
export const CSV_COLUMNS = [
  "member_id",
  "name",
  "role",
  "hired_on",
  "terminated_on",
  "course",
  "completed_on",
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
const REQUIRED: readonly CsvColumn[] = ["member_id", "name", "role", "hired_on"];
export const MAX_CSV_ROWS = 10_000;

export class CsvError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** Splits CSV text into records of fields (RFC 4180), with the line each record starts on. */
export function parseCsvRecords(text: string): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === "")) records.push({ line: start, fields });
    fields = [];
    field = "";
  };
  while (i < body.length) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && body[i + 1] === "\n") i++;
      endRecord();
      line++;
      start = line;
    } else field += c;
    i++;
  }
  if (quoted) throw new CsvError(start, "a quoted field is not closed");
  if (field !== "" || fields.length > 0) endRecord();
  return records;
}

export type TrainingCsvRow = { line: number; row: Partial<Record<CsvColumn, string>> };

/**
 * CSV text → rows keyed by column name (empty cells left out), and every row that cannot be read (its line and
 * why). A header problem is the only error: no row can be read without it.
 */
export function readTrainingCsv(text: string): { rows: TrainingCsvRow[]; errors: CsvError[] } {
  let records: ReturnType<typeof parseCsvRecords>;
  try {
    records = parseCsvRecords(text);
  } catch (err) {
    if (err instanceof CsvError) return { rows: [], errors: [err] };
    throw err;
  }
  const [header, ...rest] = records;
  const fail = (message: string) => ({ rows: [], errors: [new CsvError(1, message)] });
  if (!header) return fail("empty file: expected a header line");
  const columns = header.fields.map((h) => h.trim().toLowerCase());
  for (const c of columns)
    if (!(CSV_COLUMNS as readonly string[]).includes(c)) return fail(`unknown column "${c.slice(0, 40)}"`);
  for (const r of REQUIRED) if (!columns.includes(r)) return fail(`missing column ${r}`);
  if (new Set(columns).size !== columns.length) return fail("a column is named twice");
  if (rest.length > MAX_CSV_ROWS) return fail(`more than ${MAX_CSV_ROWS} rows`);
  const rows: TrainingCsvRow[] = [];
  const errors: CsvError[] = [];
  for (const { line, fields } of rest) {
    if (fields.length !== columns.length) {
      errors.push(new CsvError(line, `${fields.length} fields, the header has ${columns.length}`));
      continue;
    }
    const row: Partial<Record<CsvColumn, string>> = {};
    columns.forEach((c, i) => {
      const v = fields[i]!.trim();
      if (v !== "") row[c as CsvColumn] = v;
    });
    rows.push({ line, row });
  }
  return { rows, errors };
}

/** CSV text → rows keyed by column name (empty cells left out); throws the first problem. */
export function parseTrainingCsv(text: string): TrainingCsvRow[] {
  const { rows, errors } = readTrainingCsv(text);
  if (errors[0]) throw errors[0];
  return rows;
}

import { createHash } from "node:crypto";
import { parseCsv } from "./csv.js";
import { FeedError, where } from "./feed-error.js";

/** One breach of 500 or more records as the HHS OCR breach portal lists it. */
export interface HhsBreach {
  /** Stable identity of the report (see {@link breachId}): the same report in two exports is one record. */
  readonly id: string;
  readonly entityName: string;
  /** Two-letter state; null where the export leaves it blank (a few archive rows). */
  readonly state: string | null;
  readonly entityType: string | null;
  readonly individualsAffected: number | null;
  /** Breach submission date, YYYY-MM-DD. */
  readonly submittedOn: string;
  /** Types of breach as listed ("Hacking/IT Incident"); a row may list several. */
  readonly breachTypes: readonly string[];
  readonly locations: readonly string[];
  readonly businessAssociatePresent: boolean | null;
  readonly description: string | null;
}

export interface HhsBreachFile {
  readonly breaches: HhsBreach[];
  /** Columns of the file this importer does not read (the 2024 export's trailing `Year`). */
  readonly ignoredColumns: string[];
  /** Rows that repeat an earlier row's report exactly: counted once (the archive export holds one such pair). */
  readonly duplicates: { readonly row: number; readonly sameAs: number }[];
  readonly newestSubmission: string | null;
}

type Field =
  | "name"
  | "state"
  | "entityType"
  | "individuals"
  | "submitted"
  | "breachType"
  | "location"
  | "businessAssociate"
  | "description";

/**
 * Header spellings seen in real exports, by their key (lower case, every run of non-letters as `_`): the portal's
 * own "Name of Covered Entity", the snake_case re-exports, and shorter forms.
 */
const HEADER_KEYS: Readonly<Record<string, Field>> = {
  name_of_covered_entity: "name",
  covered_entity_name: "name",
  covered_entity: "name",
  entity_name: "name",
  name: "name",
  state: "state",
  covered_entity_type: "entityType",
  entity_type: "entityType",
  individuals_affected: "individuals",
  number_of_individuals_affected: "individuals",
  breach_submission_date: "submitted",
  submission_date: "submitted",
  date_of_breach_submission: "submitted",
  type_of_breach: "breachType",
  breach_type: "breachType",
  location_of_breached_information: "location",
  location: "location",
  business_associate_present: "businessAssociate",
  business_associate_involved: "businessAssociate",
  web_description: "description",
  description: "description",
};

const REQUIRED: readonly Field[] = [
  "name",
  "state",
  "entityType",
  "individuals",
  "submitted",
  "breachType",
  "location",
];

/** Above this share of exactly repeated rows the file is a broken export, not a portal quirk. */
const MAX_DUPLICATE_SHARE = 0.01;
const MAX_DESCRIPTION = 4000;
const MAX_NAME = 300;

const headerKey = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^a-z]+/g, "_")
    .replace(/^_|_$/g, "");

/**
 * Parses an HHS OCR breach-portal export (CSV). Every cell that cannot be read is an error naming its row and
 * column; nothing is returned half-read. Accepted variants: header spellings above, dates as MM/DD/YYYY or ISO
 * (a time part is ignored), booleans as Yes/No, true/false, Y/N or 1/0, `\N` (a MySQL dump's null) as blank.
 */
export function parseHhsBreachCsv(text: string): HhsBreachFile {
  const records = parseCsv(text);
  const header = records[0];
  if (!header) throw new FeedError("feed_empty", "the file holds no header and no rows");
  const columns = new Map<Field, number>();
  const ignoredColumns: string[] = [];
  header.fields.forEach((h, index) => {
    const field = HEADER_KEYS[headerKey(h)];
    if (field && !columns.has(field)) columns.set(field, index);
    else ignoredColumns.push(h.trim());
  });
  const missing = REQUIRED.filter((f) => !columns.has(f));
  if (missing.length > 0) {
    throw new FeedError(
      "feed_wrong_columns",
      `row 1: not an HHS OCR breach export: missing column(s) ${missing.map(columnLabel).join(", ")} ` +
        `(found: ${header.fields.map((h) => JSON.stringify(h.trim().slice(0, 60))).join(", ")})`,
      { row: 1 },
    );
  }
  if (records.length === 1) throw new FeedError("feed_empty", "the file has a header but no rows");

  const breaches: HhsBreach[] = [];
  const firstRowOf = new Map<string, number>();
  const duplicates: { row: number; sameAs: number }[] = [];
  let newest: string | null = null;
  for (const record of records.slice(1)) {
    if (record.fields.length !== header.fields.length) {
      throw new FeedError(
        "feed_wrong_columns",
        `row ${record.row}: ${record.fields.length} field(s) where the header has ${header.fields.length}` +
          (record.row === records.at(-1)?.row ? " (the file looks truncated)" : ""),
        { row: record.row },
      );
    }
    const cell = (f: Field) => {
      const index = columns.get(f);
      return index === undefined ? "" : cleanCell(record.fields[index] ?? "");
    };
    const at = (f: Field) => ({ row: record.row, column: header.fields[columns.get(f) ?? 0]?.trim() ?? f });
    const breach = readRow(cell, at);
    const seen = firstRowOf.get(breach.id);
    if (seen !== undefined) {
      duplicates.push({ row: record.row, sameAs: seen });
      continue;
    }
    firstRowOf.set(breach.id, record.row);
    breaches.push(breach);
    if (newest === null || breach.submittedOn > newest) newest = breach.submittedOn;
  }
  const rows = records.length - 1;
  if (duplicates.length > Math.max(1, rows * MAX_DUPLICATE_SHARE)) {
    const sample = duplicates
      .slice(0, 3)
      .map((d) => `row ${d.row} repeats row ${d.sameAs}`)
      .join("; ");
    throw new FeedError(
      "feed_duplicate_rows",
      `${duplicates.length} of ${rows} rows repeat an earlier row (${sample}${duplicates.length > 3 ? "; …" : ""}): ` +
        "not a portal export; nothing was imported",
      { row: duplicates[0]?.row },
    );
  }
  return { breaches, ignoredColumns, duplicates, newestSubmission: newest };
}

function readRow(cell: (f: Field) => string, at: (f: Field) => { row: number; column: string }): HhsBreach {
  const bad = (f: Field, message: string) => new FeedError("feed_bad_value", `${where(at(f))}${message}`, at(f));
  const entityName = cell("name").replace(/\s+/g, " ");
  if (entityName === "") throw bad("name", "the covered entity's name is blank");
  if (entityName.length > MAX_NAME)
    throw bad("name", `a name of ${entityName.length} characters (at most ${MAX_NAME})`);
  const stateText = cell("state").toUpperCase();
  if (stateText !== "" && !/^[A-Z]{2}$/.test(stateText))
    throw bad("state", `${JSON.stringify(stateText.slice(0, 20))} is not a two-letter state code`);
  const individualsText = cell("individuals").replace(/,/g, "");
  if (individualsText !== "" && !/^\d{1,10}$/.test(individualsText))
    throw bad("individuals", `${JSON.stringify(individualsText.slice(0, 20))} is not a whole number`);
  const submittedOn = readDate(cell("submitted"));
  if (!submittedOn)
    throw bad(
      "submitted",
      `${JSON.stringify(cell("submitted").slice(0, 30))} is not a date (MM/DD/YYYY or YYYY-MM-DD expected)`,
    );
  const ba = cell("businessAssociate");
  const businessAssociatePresent = readBoolean(ba);
  if (businessAssociatePresent === undefined)
    throw bad("businessAssociate", `${JSON.stringify(ba.slice(0, 20))} is not Yes/No or true/false`);
  const description = cell("description");
  const partial = {
    entityName,
    state: stateText || null,
    entityType: cell("entityType") || null,
    individualsAffected: individualsText === "" ? null : Number(individualsText),
    submittedOn,
    breachTypes: list(cell("breachType")),
    locations: list(cell("location")),
    businessAssociatePresent,
    description: description === "" ? null : description.slice(0, MAX_DESCRIPTION),
  };
  return { id: breachId(partial), ...partial };
}

/** `\N` is a MySQL dump's null; a trailing `\` and stray CRs are its escaped line breaks. */
function cleanCell(raw: string): string {
  const v = raw
    .replace(/\\\r?$/g, "")
    .replace(/\r(?!\n)/g, "\n")
    .replace(/\\\n/g, "\n")
    .trim();
  return v === "\\N" ? "" : v;
}

function list(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** YYYY-MM-DD (optionally with a time) or M/D/YYYY, checked against the calendar; null otherwise. */
export function readDate(text: string): string | null {
  let y: string | undefined;
  let m: string | undefined;
  let d: string | undefined;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+Z?)?$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (iso) [, y, m, d] = iso;
  else if (us) [, m, d, y] = us;
  else return null;
  const out = `${y}-${m!.padStart(2, "0")}-${d!.padStart(2, "0")}`;
  const parsed = new Date(`${out}T00:00:00Z`);
  return Number.isFinite(parsed.getTime()) && parsed.toISOString().startsWith(out) ? out : null;
}

/** Yes/No, true/false, Y/N, 1/0 (any case); null for blank; undefined for anything else. */
export function readBoolean(text: string): boolean | null | undefined {
  const v = text.trim().toLowerCase();
  if (v === "") return null;
  if (["yes", "true", "y", "1"].includes(v)) return true;
  if (["no", "false", "n", "0"].includes(v)) return false;
  return undefined;
}

/**
 * The identity of a report: entity name (case and spacing folded), state, submission date, individuals affected
 * and breach type. The portal has no report id; these five tell two reports apart in both real files.
 */
function breachId(b: Omit<HhsBreach, "id">): string {
  const key = [
    b.entityName.toLowerCase(),
    b.state ?? "",
    b.submittedOn,
    b.individualsAffected ?? "",
    b.breachTypes.join("|").toLowerCase(),
  ].join("\u001f");
  return `hhs_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;
}

const LABELS: Record<Field, string> = {
  name: "Name of Covered Entity",
  state: "State",
  entityType: "Covered Entity Type",
  individuals: "Individuals Affected",
  submitted: "Breach Submission Date",
  breachType: "Type of Breach",
  location: "Location of Breached Information",
  businessAssociate: "Business Associate Present",
  description: "Web Description",
};
const columnLabel = (f: Field) => `"${LABELS[f]}"`;

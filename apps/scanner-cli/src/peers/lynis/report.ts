/**
 * Lynis's machine-readable report (`--report-file`, `key=value` lines, `key[]=` for lists). Only what the
 * comparison with the scanner needs is read: the warnings and suggestions, which tests ran or were skipped, and
 * the run's identity (version, OS, start and end).
 */

export type LynisItemKind = "warning" | "suggestion";

/** One `warning[]=` or `suggestion[]=` line: `TEST-ID|text|details|solution|`. */
export interface LynisItem {
  readonly kind: LynisItemKind;
  /** Lynis's test id (AUTH-9262, or LYNIS for its own notices). */
  readonly test: string;
  readonly text: string;
  /** `-` in the report when Lynis gave none; null here. */
  readonly details: string | null;
  readonly solution: string | null;
}

export interface LynisReport {
  readonly version: string | null;
  readonly os: { readonly name: string | null; readonly version: string | null };
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly items: readonly LynisItem[];
  readonly testsExecuted: ReadonlySet<string>;
  readonly testsSkipped: ReadonlySet<string>;
}

/** Test ids as Lynis writes them: a category of capitals, a dash, four digits; LYNIS for notices about itself. */
const TEST_ID = /^(?:[A-Z]{3,5}-\d{4}|LYNIS)$/;

/** Parses a Lynis report file; lines it does not use, and malformed items, are left out. */
export function parseLynisReport(text: string): LynisReport {
  const scalars = new Map<string, string>();
  const items: LynisItem[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (raw.startsWith("#") || !raw.includes("=")) continue;
    const eq = raw.indexOf("=");
    const key = raw.slice(0, eq);
    const value = raw.slice(eq + 1);
    if (key === "warning[]" || key === "suggestion[]") {
      const item = parseItem(key === "warning[]" ? "warning" : "suggestion", value);
      if (item) items.push(item);
    } else if (!key.endsWith("[]")) {
      scalars.set(key, value);
    }
  }
  return {
    version: scalars.get("lynis_version") ?? null,
    os: { name: scalars.get("os_name") ?? null, version: scalars.get("os_version") ?? null },
    startedAt: scalars.get("report_datetime_start") ?? null,
    endedAt: scalars.get("report_datetime_end") ?? null,
    items,
    testsExecuted: testList(scalars.get("tests_executed")),
    testsSkipped: testList(scalars.get("tests_skipped")),
  };
}

function parseItem(kind: LynisItemKind, value: string): LynisItem | null {
  const [test = "", text = "", details = "-", solution = "-"] = value.split("|");
  if (!TEST_ID.test(test) || text.trim() === "") return null;
  const orNull = (s: string) => (s === "-" || s.trim() === "" ? null : s);
  return { kind, test, text: text.trim(), details: orNull(details), solution: orNull(solution) };
}

function testList(value: string | undefined): ReadonlySet<string> {
  return new Set((value ?? "").split("|").filter((t) => TEST_ID.test(t)));
}

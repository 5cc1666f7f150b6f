import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** Where a transcribed table of test cases comes from: enough to find the original and check the transcription. */
export interface Provenance {
  readonly repository: string;
  readonly path: string;
  /** Commit (or release) the cases were transcribed from. */
  readonly commit: string;
  readonly license?: string;
  readonly note?: string;
}

/** One case of a conformance table: the input and the verdict its source expects, under a stable name. */
export interface ConformanceCase<Input, Expected> {
  readonly name: string;
  readonly input: Input;
  readonly expected: Expected;
}

/** A table transcribed from one source; `excluded` names the cases that do not apply, each with its reason. */
export interface ConformanceTable<Input, Expected> {
  readonly source: Provenance;
  readonly cases: readonly ConformanceCase<Input, Expected>[];
  readonly excluded?: Readonly<Record<string, string>>;
}

export interface CaseResult {
  readonly name: string;
  readonly pass: boolean;
  /** What we got, for the failure message. */
  readonly got?: unknown;
}

export interface ConformanceReport {
  readonly suite: string;
  readonly passed: number;
  readonly applicable: number;
  readonly excluded: readonly string[];
  readonly failures: readonly CaseResult[];
  /** The line printed in the test output, e.g. "[conformance] RFC 7208 SPF: 203/203 pass (0 excluded)". */
  readonly line: string;
}

/** The share of applicable cases every suite must pass. */
export const CONFORMANCE_TARGET = 0.99;

/** Totals a suite's results; excluded cases are neither passes nor failures. */
export function conformanceReport(
  suite: string,
  results: readonly CaseResult[],
  excluded: Readonly<Record<string, string>> = {},
): ConformanceReport {
  const applicable = results.filter((r) => !(r.name in excluded));
  const failures = applicable.filter((r) => !r.pass);
  const passed = applicable.length - failures.length;
  const names = Object.keys(excluded);
  const line =
    `[conformance] ${suite}: ${passed}/${applicable.length} pass` +
    ` (${names.length} excluded${names.length > 0 ? `: ${names.join(", ")}` : ""})`;
  return { suite, passed, applicable: applicable.length, excluded: names, failures, line };
}

/** Runs every case of the tables through `check` and totals them under `suite`. */
export async function runConformanceTables<Input, Expected>(
  suite: string,
  tables: readonly ConformanceTable<Input, Expected>[],
  check: (input: Input, expected: Expected) => boolean | Promise<boolean>,
  describeGot: (input: Input) => unknown = () => undefined,
): Promise<ConformanceReport> {
  const results: CaseResult[] = [];
  const excluded: Record<string, string> = {};
  for (const table of tables) {
    Object.assign(excluded, table.excluded ?? {});
    for (const c of table.cases) {
      const pass = await check(c.input, c.expected);
      results.push({ name: c.name, pass, ...(pass ? {} : { got: describeGot(c.input) }) });
    }
  }
  return conformanceReport(suite, results, excluded);
}

/**
 * Prints a suite's result line in the test output and records it in `.test-results/conformance.txt` of the
 * workspace, from which `npm test` repeats every suite's counts in its closing summary.
 */
export function printConformance(report: ConformanceReport): void {
  console.log(report.line);
  const dir = join(process.cwd(), ".test-results");
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, "conformance.txt"), `${report.line}\n`);
}

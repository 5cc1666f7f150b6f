import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Public reference data (conformance suites, HHS breach exports, the CISA KEV catalogue) lives outside the
 * repository, in `../shared/data` beside the repository root, and is never copied into the project. CI has it; a
 * user's clone may not.
 */
export const SHARED_DATA_DIR = fileURLToPath(new URL("../../../../../shared/data/", import.meta.url));

/** When HCS_TEST_SHARED_DATA=required (CI), a missing data file fails the tests instead of skipping them. */
export const SHARED_DATA_REQUIRED = process.env.HCS_TEST_SHARED_DATA === "required";

/** The absolute path of a file under ../shared/data (relative path with forward slashes). */
export function sharedDataPath(relativePath: string, dir = SHARED_DATA_DIR): string {
  return join(dir, ...relativePath.split("/"));
}

/** Where to look and how to report; the defaults are the real directory, the environment and console.warn. */
export interface SharedDataOptions {
  readonly dir?: string;
  readonly required?: boolean;
  readonly warn?: (message: string) => void;
}

/**
 * Decides once per test file whether tests that read `relativePath` run: its absolute path when the file is
 * there; null (with a printed reason) when it is absent; a thrown error when it is absent and
 * HCS_TEST_SHARED_DATA=required. `what` names the data in the message ("RFC 7208 SPF test suite").
 */
export function sharedDataFile(relativePath: string, what: string, options: SharedDataOptions = {}): string | null {
  const path = sharedDataPath(relativePath, options.dir);
  if (existsSync(path)) return path;
  const reason = `${what} is not at ${path} (../shared/data is not next to this checkout)`;
  if (options.required ?? SHARED_DATA_REQUIRED) throw new Error(`HCS_TEST_SHARED_DATA=required but the ${reason}`);
  (options.warn ?? console.warn)(
    `[skip] ${what} tests skipped: the ${reason}. Set HCS_TEST_SHARED_DATA=required to make this a failure.`,
  );
  return null;
}

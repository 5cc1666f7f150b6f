import { Argument, type Command, Option } from "commander";
import { extraCaCertificates } from "../jobs/create-worker.js";
import {
  type DirectoryFile,
  type DirectoryImportProgress,
  type DirectoryImportReport,
  directoryImportStates,
  importDirectoryFile,
} from "../services/directory/import-file.js";
import type { FeedImportReport } from "../services/intel/feed-imports.js";
import { importFeed } from "../services/intel/feed-refresh.js";
import { downloadFeed, FEED_MAX_BYTES, type FeedName, readFeedFile } from "../services/intel/feed-source.js";
import { feedStatus } from "../services/intel/feed-status.js";
import { auditedAs, type CliEnv, configFrom, printResult, withServices } from "./context.js";

/** The command's feed names (words) and the stored feed names. */
const FEED_WORDS: Readonly<Record<string, FeedName>> = { "hhs-breaches": "hhs_breaches", kev: "kev", eol: "eol" };

/** The directory files (docs/onboarding.md#the-directory): read from a file only, streamed, resumable. */
const DIRECTORY_WORDS: Readonly<Record<string, DirectoryFile>> = {
  nppes: "nppes",
  "nppes-endpoints": "nppes_endpoints",
  "nucc-taxonomy": "nucc_taxonomy",
};

/** Thrown for a wrong combination of options (exit code 2, like commander's own usage errors). */
export class DataUsageError extends Error {}

/**
 * `data import` and `data status`: the operator loads the public feeds (docs/intelligence.md). An import that
 * changes data writes its audit event (`operator.data.import`, resource `feed:<name>`) in the import's transaction.
 */
export function registerDataCommands(program: Command, cli: CliEnv): void {
  const json = () => Boolean(program.opts().json);
  const data = program
    .command("data")
    .description(
      "Public data: threat and breach intelligence (HHS OCR breaches, CISA KEV, end-of-life) and the NPPES directory",
    );
  data
    .command("import")
    .description("Import a feed from a file or an https:// URL (validated whole first; one transaction; idempotent)")
    .addArgument(
      new Argument("<feed>", "which feed").choices([...Object.keys(FEED_WORDS), ...Object.keys(DIRECTORY_WORDS)]),
    )
    .option("--file <path>", "read the feed from this file")
    .option("--url <url>", "download the feed from this https:// URL (HCS_EXTRA_CA_FILE adds trusted CAs)")
    .addOption(new Option("--product <id>", "eol: the endoflife.date product id of a single product's cycle array"))
    .addHelpText(
      "after",
      "\nExamples:\n  hcs-server data import hhs-breaches --file breach_report.csv\n  hcs-server data import nppes --file npidata_pfile_20050523-20250907.csv   (or an NPI Registry API answer, .json)\n  hcs-server data import nppes-endpoints --file endpoint_pfile_20050523-20250907.csv\n  hcs-server data import nucc-taxonomy --file nucc_taxonomy_251.csv\n  hcs-server data import kev --url https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json\n  hcs-server data import eol --product nginx --url https://endoflife.date/api/nginx.json\n",
    )
    .action(async (word: string, o: { file?: string; url?: string; product?: string }) => {
      const directory = DIRECTORY_WORDS[word];
      if (directory) {
        if (!o.file || o.url) throw new DataUsageError(`${word} is imported from a file: give --file <path>`);
        if (o.product) throw new DataUsageError("--product applies to the eol feed only");
        const report = await importDirectory(cli, directory, o.file);
        printResult(cli, json(), json() ? (report as unknown as Record<string, unknown>) : directorySummary(report));
        if (!json() && !report.changed) cli.err("This exact file was imported completely before: nothing changed.");
        return;
      }
      const feed = FEED_WORDS[word]!;
      if (Boolean(o.file) === Boolean(o.url))
        throw new DataUsageError("give exactly one of --file <path> or --url <url>");
      if (o.product && feed !== "eol") throw new DataUsageError("--product applies to the eol feed only");
      const config = configFrom(cli);
      const text = o.file
        ? await readFeedFile(o.file, FEED_MAX_BYTES[feed])
        : await downloadFeed(o.url!, {
            maxBytes: FEED_MAX_BYTES[feed],
            extraCaPem: extraCaCertificates(config.extraCaFile),
          });
      const report = await withServices(cli, (deps) =>
        importFeed(
          deps,
          feed,
          text,
          o.product,
          auditedAs(cli, deps, "operator.data.import", (r: FeedImportReport) => ({
            accountId: null,
            resource: `feed:${r.feed}`,
          })),
        ),
      );
      printResult(cli, json(), json() ? (report as unknown as Record<string, unknown>) : summary(report));
      if (!json() && !report.changed) cli.err("This exact file was imported before: nothing changed.");
    });
  data
    .command("status")
    .description("Show each feed's latest import: source, version, records, age")
    .action(async () => {
      const [feeds, directory] = await withServices(cli, (deps) =>
        Promise.all([feedStatus(deps), directoryImportStates(deps)]),
      );
      printResult(cli, json(), [...feeds, ...directory] as unknown as Record<string, unknown>[]);
    });
}

/** Progress lines on stderr at most once a second (stdout stays the result, for scripts). */
function progressPrinter(cli: CliEnv) {
  let last = 0;
  return (p: DirectoryImportProgress) => {
    const now = performance.now();
    if (now - last < 1_000 && p.bytes < p.total_bytes) return;
    last = now;
    const pct = Math.floor((100 * p.bytes) / Math.max(1, p.total_bytes));
    const rate = p.seconds > 0 ? Math.round(p.records / p.seconds) : 0;
    cli.err(
      `${p.kind}: ${pct}% (${mib(p.bytes)} of ${mib(p.total_bytes)} MiB), ${p.records} records, ${p.skipped} skipped, ${rate} records/s`,
    );
  };
}

const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);

/** One directory import, audited (`operator.data.import`, resource `directory:<kind>`) in its last transaction. */
function importDirectory(cli: CliEnv, kind: DirectoryFile, file: string): Promise<DirectoryImportReport> {
  return withServices(cli, (deps) =>
    importDirectoryFile(deps, kind, file, {
      progress: progressPrinter(cli),
      auditIn: auditedAs(cli, deps, "operator.data.import", (r: DirectoryImportReport) => ({
        accountId: null,
        resource: `directory:${r.kind}`,
      })),
    }),
  );
}

function directorySummary(r: DirectoryImportReport): Record<string, unknown> {
  return {
    feed: r.kind,
    source: r.source,
    records: r.records,
    skipped: r.skipped,
    changed: r.changed,
    resumed_at_byte: r.resumed_at_byte,
    seconds: r.seconds.toFixed(1),
    ...(r.refusals.length > 0
      ? {
          first_refused: r.refusals
            .slice(0, 3)
            .map((x) => `row ${x.row} ${x.field}: ${x.reason}`)
            .join("; "),
        }
      : {}),
  };
}

function summary(r: FeedImportReport): Record<string, unknown> {
  return {
    feed: r.feed,
    source: r.source,
    version: r.version,
    records: r.records,
    changed: r.changed,
    imported_at: r.imported_at,
    ...Object.fromEntries(Object.entries(r.detail).map(([k, v]) => [k, typeof v === "object" ? JSON.stringify(v) : v])),
  };
}

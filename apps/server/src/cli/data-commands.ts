import { Argument, type Command, Option } from "commander";
import { extraCaCertificates } from "../jobs/create-worker.js";
import type { FeedImportReport } from "../services/intel/feed-imports.js";
import { importFeed } from "../services/intel/feed-refresh.js";
import { downloadFeed, FEED_MAX_BYTES, type FeedName, readFeedFile } from "../services/intel/feed-source.js";
import { feedStatus } from "../services/intel/feed-status.js";
import { auditedAs, type CliEnv, configFrom, printResult, withServices } from "./context.js";

/** The command's feed names (words) and the stored feed names. */
const FEED_WORDS: Readonly<Record<string, FeedName>> = { "hhs-breaches": "hhs_breaches", kev: "kev", eol: "eol" };

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
    .description("Threat and breach intelligence feeds (HHS OCR breaches, CISA KEV, end-of-life)");
  data
    .command("import")
    .description("Import a feed from a file or an https:// URL (validated whole first; one transaction; idempotent)")
    .addArgument(new Argument("<feed>", "which feed").choices(Object.keys(FEED_WORDS)))
    .option("--file <path>", "read the feed from this file")
    .option("--url <url>", "download the feed from this https:// URL (HCS_EXTRA_CA_FILE adds trusted CAs)")
    .addOption(new Option("--product <id>", "eol: the endoflife.date product id of a single product's cycle array"))
    .addHelpText(
      "after",
      "\nExamples:\n  hcs-server data import hhs-breaches --file breach_report.csv\n  hcs-server data import kev --url https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json\n  hcs-server data import eol --product nginx --url https://endoflife.date/api/nginx.json\n",
    )
    .action(async (word: string, o: { file?: string; url?: string; product?: string }) => {
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
      const status = await withServices(cli, (deps) => feedStatus(deps));
      printResult(cli, json(), status as unknown as Record<string, unknown>[]);
    });
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

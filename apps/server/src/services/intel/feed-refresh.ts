import type { Logger } from "pino";
import type { FeedsRefreshConfig } from "../../config.js";
import { isFeedError } from "../../intel/feed-error.js";
import type { AuditInTransaction } from "../audit.js";
import type { ServiceDeps } from "../deps.js";
import { type FeedImportReport, importEol, importHhsBreaches, importKev } from "./feed-imports.js";
import { downloadFeed, FEED_MAX_BYTES, type FeedName, type FeedText } from "./feed-source.js";

/** Imports a feed's text with the importer of its kind (`product` only for a single endoflife.date product). */
export function importFeed(
  deps: ServiceDeps,
  feed: FeedName,
  text: FeedText,
  product: string | undefined,
  auditIn?: AuditInTransaction<FeedImportReport>,
): Promise<FeedImportReport> {
  switch (feed) {
    case "hhs_breaches":
      return importHhsBreaches(deps, text, auditIn);
    case "kev":
      return importKev(deps, text, auditIn);
    case "eol":
      return importEol(deps, text, product, auditIn);
  }
}

/** One refresh: each configured feed downloaded and imported; a failure is logged and the others still run. */
export async function refreshFeeds(
  deps: ServiceDeps,
  config: FeedsRefreshConfig,
  extraCaPem: readonly string[],
  logger: Logger,
): Promise<FeedImportReport[]> {
  const jobs: { feed: FeedName; url: string; product?: string }[] = [];
  if (config.hhsUrl) jobs.push({ feed: "hhs_breaches", url: config.hhsUrl });
  jobs.push({ feed: "kev", url: config.kevUrl });
  const products = await deps.store.db.selectFrom("eol_products").select("product").orderBy("product").execute();
  for (const { product } of products)
    jobs.push({ feed: "eol", url: config.eolUrl.replace("{product}", encodeURIComponent(product)), product });
  const reports: FeedImportReport[] = [];
  for (const job of jobs) {
    try {
      const text = await downloadFeed(job.url, { maxBytes: FEED_MAX_BYTES[job.feed], extraCaPem });
      const report = await importFeed(deps, job.feed, text, job.product);
      reports.push(report);
      logger.info(
        { feed: job.feed, version: report.version, records: report.records, changed: report.changed },
        "feed refreshed",
      );
    } catch (err) {
      if (!isFeedError(err)) throw err;
      logger.warn(
        { feed: job.feed, code: err.code, reason: err.message },
        "feed refresh failed; the stored data stays",
      );
    }
  }
  return reports;
}

/** Runs {@link refreshFeeds} now and every `intervalMs` (one at a time); `stop` waits for a running one. */
export function startFeedRefresh(
  deps: ServiceDeps,
  config: FeedsRefreshConfig,
  extraCaPem: readonly string[],
  logger: Logger,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    running = refreshFeeds(deps, config, extraCaPem, logger).catch((err: unknown) =>
      logger.error({ err }, "feed refresh failed"),
    );
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, config.intervalMs);
  first.unref();
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}

import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { request } from "node:https";
import { rootCertificates } from "node:tls";
import { FeedError } from "../../intel/feed-error.js";

/** The feeds the server imports (docs/intelligence.md). */
export const FEEDS = ["hhs_breaches", "kev", "eol"] as const;
export type FeedName = (typeof FEEDS)[number];

/**
 * Largest file accepted per feed. The real files are far smaller (HHS full export ≈ 3 MB, KEV ≈ 1.3 MB, an
 * endoflife.date product ≈ 20 kB); a larger one is a wrong or hostile file, refused before it is read whole.
 */
export const FEED_MAX_BYTES: Readonly<Record<FeedName, number>> = {
  hhs_breaches: 32 * 1024 * 1024,
  kev: 16 * 1024 * 1024,
  eol: 8 * 1024 * 1024,
};

/** A feed's content as read, with where it came from and its digest (the idempotency key of an import). */
export interface FeedText {
  readonly source: string;
  readonly text: string;
  readonly sha256: string;
}

const DOWNLOAD_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 3;

function decode(bytes: Buffer, source: string): FeedText {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new FeedError("feed_not_utf8", `${source} is not UTF-8 text`);
  }
  return { source, text, sha256: createHash("sha256").update(bytes).digest("hex") };
}

const tooLarge = (source: string, max: number) =>
  new FeedError(
    "feed_too_large",
    `${source} is larger than ${max / 1024 / 1024} MiB, the most this feed accepts: not a feed file`,
  );

/** Reads a feed file, refusing one above `maxBytes` without reading it whole. */
export async function readFeedFile(path: string, maxBytes: number): Promise<FeedText> {
  const handle = await open(path, "r").catch((err: NodeJS.ErrnoException) => {
    throw new FeedError("feed_download_failed", `cannot open ${path}: ${err.code ?? err.message}`);
  });
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw tooLarge(path, maxBytes);
    const bytes = Buffer.alloc(size);
    const { bytesRead } = await handle.read(bytes, 0, size, 0);
    return decode(bytes.subarray(0, bytesRead), path);
  } finally {
    await handle.close();
  }
}

export interface DownloadOptions {
  readonly maxBytes: number;
  /** Extra CA certificates (PEM) trusted besides the system's (HCS_EXTRA_CA_FILE: a test's local server). */
  readonly extraCaPem?: readonly string[];
  readonly timeoutMs?: number;
}

/**
 * Downloads a feed over HTTPS only (plain HTTP is refused, redirects to it too), stopping at `maxBytes`. The
 * error names the URL without its query (which can carry a token) and the reason.
 */
export async function downloadFeed(url: string, options: DownloadOptions): Promise<FeedText> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new FeedError("feed_download_failed", "the feed URL is not a URL");
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (target.protocol !== "https:")
      throw new FeedError("feed_download_failed", `${shown(target)}: feeds are downloaded over https:// only`);
    const answer = await fetchOnce(target, options);
    if (answer.redirect) {
      target = new URL(answer.redirect, target);
      continue;
    }
    return decode(answer.body!, shown(target));
  }
  throw new FeedError("feed_download_failed", `${shown(target)}: more than ${MAX_REDIRECTS} redirects`);
}

const shown = (u: URL) => `${u.origin}${u.pathname}`;

function fetchOnce(target: URL, options: DownloadOptions): Promise<{ body?: Buffer; redirect?: string }> {
  const timeoutMs = options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS;
  return new Promise((settle, refuse) => {
    // The first outcome wins: destroying a response on purpose also fires its abort and error events.
    let settled = false;
    const resolve = (v: { body?: Buffer; redirect?: string }) => {
      if (!settled) settle(v);
      settled = true;
    };
    const reject = (err: Error) => {
      if (!settled) refuse(err);
      settled = true;
    };
    const fail = (reason: string) => reject(new FeedError("feed_download_failed", `${shown(target)}: ${reason}`));
    const req = request(
      target,
      {
        method: "GET",
        headers: { accept: "application/json, text/csv, */*", "user-agent": "hcs-server feed import" },
        ...(options.extraCaPem?.length ? { ca: [...rootCertificates, ...options.extraCaPem] } : {}),
        timeout: timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          resolve({ redirect: res.headers.location });
          return;
        }
        if (status !== 200) {
          res.resume();
          fail(`HTTP ${status}`);
          return;
        }
        const declared = Number(res.headers["content-length"] ?? Number.NaN);
        if (declared > options.maxBytes) {
          reject(tooLarge(shown(target), options.maxBytes));
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            reject(tooLarge(shown(target), options.maxBytes));
            res.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => resolve({ body: Buffer.concat(chunks) }));
        res.on("aborted", () => fail("the connection closed before the end of the file"));
        res.on("error", (err) => fail(err.message));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", (err) => fail(err.message));
    req.end();
  });
}

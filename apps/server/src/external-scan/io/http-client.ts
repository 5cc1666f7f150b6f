import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { netFailureCode } from "./net-errors.js";
import type { HttpIO, HttpOutcome } from "./types.js";

export interface NodeHttpClientOptions {
  /** Whole request: connect, TLS, headers and body. */
  readonly timeoutMs: number;
  /** Bodies are read up to this many (decoded) bytes and then cut. */
  readonly maxBodyBytes: number;
  readonly userAgent: string;
}

// Page fetches must work on sites that only speak legacy TLS too, so the headers of such a site are still assessed.
const CIPHERS = "DEFAULT:@SECLEVEL=0";
const TEXT_TYPES = /^(text\/|application\/(xhtml\+xml|xml|json|javascript))/i;

/**
 * A GET client over node:http(s) that connects to the address the scan cleared while sending the URL's host
 * as Host and SNI. Certificates are not verified here (the TLS probe judges them); no cookies, no redirects.
 */
export function createNodeHttpClient(options: NodeHttpClientOptions): HttpIO {
  return {
    get: ({ url, address, signal }) =>
      new Promise<HttpOutcome>((resolve) => {
        const target = new URL(url);
        const https = target.protocol === "https:";
        if (!https && target.protocol !== "http:") {
          return resolve({ ok: false, code: "error", detail: `unsupported scheme ${target.protocol}` });
        }
        if (signal.aborted) return resolve({ ok: false, code: "aborted" });
        let settled = false;
        const finish = (outcome: HttpOutcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          req.destroy();
          resolve(outcome);
        };
        const onAbort = () => finish({ ok: false, code: "aborted" });
        const timer = setTimeout(() => finish({ ok: false, code: "timeout" }), options.timeoutMs);
        signal.addEventListener("abort", onAbort, { once: true });

        const hostname = target.hostname.replace(/^\[|\]$/g, "");
        const req = (https ? httpsRequest : httpRequest)({
          host: address,
          port: target.port || (https ? 443 : 80),
          path: `${target.pathname}${target.search}`,
          method: "GET",
          agent: false,
          headers: {
            host: target.host,
            "user-agent": options.userAgent,
            accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
            "accept-encoding": "gzip, deflate, br",
          },
          ...(https
            ? {
                rejectUnauthorized: false,
                ciphers: CIPHERS,
                minVersion: "TLSv1" as const,
                ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
              }
            : {}),
        });
        req.once("error", (error: NodeJS.ErrnoException) =>
          finish({ ok: false, code: netFailureCode(error), detail: error.code ?? error.message }),
        );
        req.once("response", (res) => {
          readBody(res, options.maxBodyBytes).then(
            ({ body, truncated }) => finish({ ok: true, ...describeResponse(res), body, truncated }),
            (error: NodeJS.ErrnoException) =>
              finish({ ok: false, code: netFailureCode(error), detail: error.code ?? error.message }),
          );
        });
        req.end();
      }),
  };
}

function describeResponse(res: IncomingMessage): {
  status: number;
  headers: Record<string, string>;
  set_cookies: string[];
} {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (name === "set-cookie" || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { status: res.statusCode ?? 0, headers, set_cookies: res.headers["set-cookie"] ?? [] };
}

async function readBody(res: IncomingMessage, maxBytes: number): Promise<{ body: string; truncated: boolean }> {
  const contentType = res.headers["content-type"] ?? "";
  // Without a Content-Type browsers sniff; the crawl does too, so such bodies are read.
  if (contentType !== "" && !TEXT_TYPES.test(contentType)) {
    res.resume();
    return { body: "", truncated: false };
  }
  const stream = decoded(res);
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    if (size + buffer.length > maxBytes) {
      chunks.push(buffer.subarray(0, maxBytes - size));
      truncated = true;
      break;
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  if (truncated) stream.destroy();
  return { body: decodeText(Buffer.concat(chunks), contentType), truncated };
}

function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : null;
  if (!decoder) return res;
  // pipe() does not forward errors; without this a broken response would only end at the request timeout.
  res.once("error", (error) => decoder.destroy(error));
  return res.pipe(decoder);
}

function decodeText(bytes: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    // Unknown charset label: UTF-8 is what the web mostly is.
    return new TextDecoder("utf-8").decode(bytes);
  }
}

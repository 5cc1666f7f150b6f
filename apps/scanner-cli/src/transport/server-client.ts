import { RETRYABLE_STATUSES } from "@hcs/protocol";
import got, { type Got, RequestError } from "got";
import { z } from "zod";
import { CliError } from "../cli/errors.js";
import { ServerRefusal } from "./server-refusal.js";

export { ServerRefusal };

// Lenient on purpose: a newer server may use error codes this scanner does not know yet.
const ErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});

const TLS_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_TLS_CERT|ERR_SSL|HOSTNAME_MISMATCH)/;

export interface ServerClientOptions {
  readonly serverUrl: string;
  /** The pinned CA: the only certificate authority trusted for this server. */
  readonly caPem: string;
  readonly timeoutMs?: number;
  /** Attempts after the first, on network errors, 429 and 5xx (only for idempotent calls). */
  readonly retries?: number;
  readonly userAgent: string;
}

export interface ServerResponse {
  readonly status: number;
  readonly json: unknown;
}

/** HTTPS to the HCS server, trusting only its pinned CA. Failures become CliError or ServerRefusal. */
export class ServerClient {
  private readonly got: Got;

  constructor(private readonly options: ServerClientOptions) {
    this.got = got.extend({
      prefixUrl: options.serverUrl,
      https: { certificateAuthority: options.caPem, rejectUnauthorized: true },
      timeout: { request: options.timeoutMs ?? 30_000 },
      throwHttpErrors: false,
      followRedirect: false,
      headers: { "user-agent": options.userAgent, accept: "application/json" },
      retry: {
        limit: options.retries ?? 0,
        methods: ["GET", "POST"],
        statusCodes: [...RETRYABLE_STATUSES],
        errorCodes: [
          "ETIMEDOUT",
          "ECONNRESET",
          "EADDRINUSE",
          "ECONNREFUSED",
          "EPIPE",
          "ENOTFOUND",
          "ENETUNREACH",
          "EAI_AGAIN",
          "EHOSTUNREACH",
        ],
        backoffLimit: 8_000,
      },
    });
  }

  async postJson(path: string, body: string, headers: Record<string, string> = {}): Promise<ServerResponse> {
    return this.send("POST", path, body, headers);
  }

  async getJson(path: string, headers: Record<string, string> = {}): Promise<ServerResponse> {
    return this.send("GET", path, undefined, headers);
  }

  private async send(
    method: "GET" | "POST",
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
  ): Promise<ServerResponse> {
    let res: { statusCode: number; body: string };
    try {
      res = await this.got(path.replace(/^\//, ""), {
        method,
        ...(body !== undefined ? { body, headers: { "content-type": "application/json", ...headers } } : { headers }),
      });
    } catch (err) {
      const code = err instanceof RequestError ? (err.code ?? "") : "";
      if (TLS_CODES.test(code)) {
        throw new CliError(
          "server_untrusted",
          `the server at ${this.options.serverUrl} failed the TLS check against the pinned CA (${code})`,
        );
      }
      throw new CliError(
        "server_unreachable",
        `cannot reach ${this.options.serverUrl} (${code || (err as Error).message})`,
      );
    }
    let json: unknown;
    try {
      json = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      json = undefined;
    }
    if (res.statusCode >= 400) {
      const parsed = ErrorBody.safeParse(json);
      if (parsed.success)
        throw new ServerRefusal(
          res.statusCode,
          parsed.data.error.code,
          parsed.data.error.message,
          parsed.data.error.details,
        );
      throw new ServerRefusal(
        res.statusCode,
        "unexpected_response",
        `the server answered ${res.statusCode}`,
        undefined,
      );
    }
    return { status: res.statusCode, json };
  }
}

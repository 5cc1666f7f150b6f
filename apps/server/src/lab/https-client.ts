import { request as httpRequest } from "node:http";
import { Agent, request as httpsRequest } from "node:https";

export interface TestResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body's bytes (a PDF, a tarball): `text` is their UTF-8 reading. */
  readonly bytes: Buffer;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes; schemas check them where it matters
  readonly json: any;
}

export interface RequestOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  /** A value is sent as JSON (with Content-Type); a string or Buffer is sent as is. */
  readonly body?: unknown;
  readonly ca?: string;
  readonly timeoutMs?: number;
}

// Keep-alive agents per CA: tests that send hundreds of requests should not pay a TLS handshake for each.
const agents = new Map<string, Agent>();
function agentFor(ca: string | undefined): Agent | false {
  if (!ca) return false;
  let agent = agents.get(ca);
  if (!agent) {
    // `timeout` makes the agent honour the server's `Keep-Alive: timeout=N` (it lets an idle socket go a second
    // before the server closes it; without a timeout of its own Node's agent ignores the hint and may reuse a socket
    // the server is closing).
    agent = new Agent({ keepAlive: true, ca, maxSockets: 64, timeout: 120_000 });
    agents.set(ca, agent);
  }
  return agent;
}

/** A real HTTP(S) request (no mocks): TLS verified against `ca` when given. */
export function httpRequestTo(url: string, options: RequestOptions = {}): Promise<TestResponse> {
  const u = new URL(url);
  const isHttps = u.protocol === "https:";
  let payload: Buffer | undefined;
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) {
    if (typeof options.body === "string" || Buffer.isBuffer(options.body))
      payload = Buffer.from(options.body as string | Buffer);
    else {
      payload = Buffer.from(JSON.stringify(options.body));
      headers["Content-Type"] ??= "application/json";
    }
    headers["Content-Length"] ??= String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = (isHttps ? httpsRequest : httpRequest)(
      u,
      {
        method: options.method ?? (payload ? "POST" : "GET"),
        headers,
        ...(isHttps ? { ca: options.ca, agent: agentFor(options.ca) } : { agent: false }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString("utf8");
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, bytes, json });
        });
        res.on("error", reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 15_000, () => req.destroy(new Error(`request to ${url} timed out`)));
    req.on("error", reject);
    req.end(payload);
  });
}

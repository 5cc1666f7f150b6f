import { request } from "node:https";
import type { TestServer } from "./test-server.js";

/**
 * An HTTPS request whose answer is kept as bytes, not decoded or parsed: a test measuring the server's event loop
 * (in this same thread) then measures the server's work, not its own parsing of a large answer. A fresh connection
 * per request (no agent). `signal`: when it aborts, the client leaves (closes the connection); the answer is then
 * status 0 and no bytes.
 */
export function rawRequest(
  t: Pick<TestServer, "url" | "ca">,
  path: string,
  o: { headers?: Record<string, string>; body?: unknown; signal?: AbortSignal } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const payload = o.body === undefined ? undefined : Buffer.from(JSON.stringify(o.body));
    const req = request(
      `${t.url}${path}`,
      {
        method: payload ? "POST" : "GET",
        ca: t.ca,
        agent: false,
        headers: {
          ...o.headers,
          ...(payload ? { "Content-Type": "application/json", "Content-Length": String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error(`request to ${path} timed out`)));
    if (o.signal) {
      o.signal.addEventListener("abort", () => {
        req.destroy();
        resolve({ status: 0, headers: {}, bytes: Buffer.alloc(0) });
      });
      req.on("error", () => {});
    } else req.on("error", reject);
    req.end(payload);
  });
}

import { type Agent, request } from "node:https";
import { isIP } from "node:net";
import type { VettedTarget } from "./target-policy.js";

/** What one POST may cost: time budgets (ms, from now) and the most reply-body bytes read. */
export interface PostBudget {
  /** Until the first byte of the reply (connect, TLS handshake and sending the request included). */
  readonly firstByteMs: number;
  /** Until the exchange is over, however slowly the bytes arrive. */
  readonly totalMs: number;
  /** Most bytes of a non-2xx reply body kept for diagnostics; the rest is never read. */
  readonly maxBodyBytes: number;
}

export type PostResult =
  | { readonly kind: "reply"; readonly status: number; readonly excerpt: string }
  | {
      readonly kind: "failed";
      readonly code: "first_byte_timeout" | "total_timeout" | "aborted" | "network";
      readonly detail: string;
    };

/**
 * POSTs `body` to the vetted address of `target` and settles as soon as the answer is known, destroying the socket
 * instead of draining it: a 2xx is settled at the status line, another status after at most `maxBodyBytes` of body.
 * Memory per attempt is therefore a few KB whatever the receiver sends, and time is bounded by the budget. Redirects
 * are answers like any other (never followed). Never rejects.
 */
export function postCapped(
  target: VettedTarget,
  message: { readonly headers: Readonly<Record<string, string>>; readonly body: string; readonly agent: Agent },
  budget: PostBudget,
  signal?: AbortSignal,
): Promise<PostResult> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ kind: "failed", code: "aborted", detail: "attempt interrupted" });
    const hostname = target.url.hostname.replace(/^\[|\]$/g, "");
    const body = Buffer.from(message.body, "utf8");
    let settled = false;
    const settle = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(firstByteTimer);
      clearTimeout(totalTimer);
      signal?.removeEventListener("abort", onAbort);
      req.destroy();
      resolve(result);
    };
    const req = request({
      method: "POST",
      // The connection goes to the address vetCallbackUrl checked (no second lookup a rebinding resolver could
      // answer differently); SNI, the certificate check and Host still use the URL's host.
      host: target.address,
      port: target.url.port ? Number(target.url.port) : 443,
      path: `${target.url.pathname}${target.url.search}`,
      servername: isIP(hostname) ? "" : hostname,
      headers: { ...message.headers, host: target.url.host, "content-length": String(body.length) },
      agent: message.agent,
    });
    req.on("error", (err: NodeJS.ErrnoException) =>
      settle({ kind: "failed", code: "network", detail: err.code ?? "request failed" }),
    );
    const firstByteTimer = setTimeout(
      () => settle({ kind: "failed", code: "first_byte_timeout", detail: `no reply within ${budget.firstByteMs} ms` }),
      budget.firstByteMs,
    );
    const totalTimer = setTimeout(
      () => settle({ kind: "failed", code: "total_timeout", detail: `reply not over within ${budget.totalMs} ms` }),
      budget.totalMs,
    );
    const onAbort = () => settle({ kind: "failed", code: "aborted", detail: "attempt interrupted" });
    signal?.addEventListener("abort", onAbort, { once: true });

    // Decrypted bytes only: a receiver that completes TLS and then says nothing has not sent its first byte.
    req.on("socket", (socket) => socket.once("data", () => clearTimeout(firstByteTimer)));
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      // The status line is the receiver's verdict; a 2xx body carries nothing we use, so none of it is read.
      if (status >= 200 && status < 300) return settle({ kind: "reply", status, excerpt: "" });
      const kept: Buffer[] = [];
      let size = 0;
      const done = () => settle({ kind: "reply", status, excerpt: Buffer.concat(kept).toString("utf8") });
      res.on("data", (chunk: Buffer) => {
        const part = chunk.subarray(0, budget.maxBodyBytes - size);
        kept.push(Buffer.from(part));
        size += part.length;
        if (size >= budget.maxBodyBytes) done();
      });
      // A body cut short by the receiver still leaves us its status.
      res.on("end", done);
      res.on("close", done);
    });
    req.end(body);
  });
}

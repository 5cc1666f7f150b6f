import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable, Writable } from "node:stream";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "../errors.js";
import { httpRequestTo } from "../lab/https-client.js";
import { createLogger } from "../logger.js";
import { TRUST_NONE } from "./client-address.js";
import { type HotRoute, hotRequests } from "./hot-routes.js";
import { createMetrics } from "./metrics.js";
import type { HcsContext, HcsState } from "./state.js";

// The dispatcher itself, over real HTTP: what a hot handler leaves in the context is answered as Koa's chain would
// (errors mapped, bodies sent by Koa's rules), and a request it does not take reaches the fallback listener.
describe("hot requests: served ahead of Koa's chain", () => {
  const logs: string[] = [];
  const metrics = createMetrics();
  let server: Server;
  let base: string;
  const handlers: Record<string, (ctx: HcsContext) => Promise<void>> = {
    throws: async () => {
      throw new Error("boom: a secret detail");
    },
    refuses: async () => {
      throw new ServiceError("not_found", "no such practice");
    },
    object: async (ctx) => {
      ctx.status = 201;
      ctx.body = { made: (ctx as unknown as { params: { id: string } }).params.id };
    },
    empty: async (ctx) => {
      ctx.status = 204;
      ctx.body = { ignored: true };
    },
    nothing: async (ctx) => {
      ctx.status = 202;
    },
    // Set to null on purpose, then given a status with a body: Koa sends it empty (not the status message).
    none: async (ctx) => {
      ctx.body = null;
      ctx.status = 200;
    },
    stream: async (ctx) => {
      ctx.status = 200;
      ctx.body = Readable.from(["a", "b"]);
    },
  };
  beforeAll(async () => {
    const app = new Koa<HcsState>({ proxy: false });
    app.silent = true;
    const routes: HotRoute[] = [
      ...Object.entries(handlers).map(([name, handler]) => ({
        method: "get" as const,
        path: `/hot/${name}/:id`,
        handler,
      })),
      { method: "post", path: "/hot-post", handler: handlers.object! },
    ];
    const take = hotRequests(routes, [], {
      app,
      trustProxy: TRUST_NONE,
      metrics,
      logger: createLogger(
        "info",
        new Writable({
          write(chunk, _enc, done) {
            logs.push(String(chunk));
            done();
          },
        }),
      ),
    });
    server = createServer((req, res) => {
      if (take(req, res)) return;
      res.statusCode = 418;
      res.end("fallback");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = (path: string, method = "GET") => httpRequestTo(`${base}${path}`, { method });

  it("an unexpected error is a 500 `internal` naming the request id only; the cause goes to the log", async () => {
    const res = await call("/hot/throws/1");
    expect(res.status).toBe(500);
    const body = JSON.parse(res.text);
    expect(body.error.code).toBe("internal");
    expect(body.error.request_id).toBe(res.headers["x-request-id"]);
    expect(res.text).not.toContain("secret");
    expect(logs.some((l) => l.includes("unhandled error") && l.includes("boom"))).toBe(true);
  });

  it("a service error keeps its code and status; the refusal is counted and logged", async () => {
    const res = await call("/hot/refuses/1");
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).error).toMatchObject({ code: "not_found", message: "no such practice" });
    const text = await metrics.registry.metrics();
    expect(text).toContain('hcs_anonymous_refusals_total{code="not_found"} 1');
    expect(text).toMatch(/hcs_http_requests_total\{method="GET",route="\/hot\/refuses\/:id",status="404"\} 1/);
    expect(logs.some((l) => l.includes('"msg":"request"') && l.includes('"status":404'))).toBe(true);
  });

  it("bodies follow Koa's rules: JSON with its length, none for 204, HEAD or a null body, the status message for none", async () => {
    const made = await call("/hot/object/7");
    expect(made.status).toBe(201);
    expect(JSON.parse(made.text)).toEqual({ made: "7" });
    expect(made.headers["content-length"]).toBe(String(made.text.length));
    expect(made.headers["content-type"]).toBe("application/json; charset=utf-8");
    const empty = await call("/hot/empty/1");
    expect(empty.status).toBe(204);
    expect(empty.text).toBe("");
    const nothing = await call("/hot/nothing/1");
    expect(nothing.status).toBe(202);
    expect(nothing.text).toBe("Accepted");
    const none = await call("/hot/none/1");
    expect(none.status).toBe(200);
    expect(none.text).toBe("");
    expect(none.headers["content-length"]).toBe("0");
    expect(none.headers["content-type"]).toBeUndefined();
    const head = await call("/hot/object/7", "HEAD");
    expect(head.status).toBe(201);
    expect(head.text).toBe("");
    expect((await call("/hot-post", "POST")).status).toBe(201);
  });

  it("a stream body is a programming error, answered 500 (the process stays up)", async () => {
    const res = await call("/hot/stream/1");
    expect(res.status).toBe(500);
    expect((await call("/hot/object/8")).status).toBe(201);
  });

  it("leaves to the fallback what it does not take: other methods, queries, encoded or empty parameters, other paths", async () => {
    for (const [path, method] of [
      ["/hot/object/1", "DELETE"],
      ["/hot-post", "GET"],
      ["/hot/object/1?x=1", "GET"],
      ["/hot/object/%31", "GET"],
      ["/hot/object/", "GET"],
      ["/hot/object/1/", "GET"],
      ["/elsewhere", "GET"],
    ] as const) {
      const res = await call(path, method);
      expect(res.status, `${method} ${path}`).toBe(418);
    }
  });
});

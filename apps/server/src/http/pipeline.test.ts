import { request as rawHttps } from "node:https";
import { ErrorBodySchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequestTo } from "../lab/https-client.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { HCS_HTTP_PORT: "0" } });
});
afterAll(async () => {
  await t.close();
});

function expectErrorBody(res: { json: unknown; headers: Record<string, unknown> }, code: string) {
  const body = ErrorBodySchema.parse(res.json);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(res.headers["x-request-id"]);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|node_modules|Error:/);
}

describe("request pipeline", () => {
  it("serves over HTTPS with a certificate that validates against the printed CA", async () => {
    const res = await t.request("/healthz");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok" });
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a client that does not trust the CA", async () => {
    await expect(httpRequestTo(`${t.url}/healthz`, { ca: undefined })).rejects.toThrow(
      /self.signed|unable to verify|certificate/i,
    );
  });

  it("refuses every plain-HTTP request with 403 https_required and runs no handler", async () => {
    const port = t.server.httpPort!;
    const before = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    for (const [method, path] of [
      ["GET", "/healthz"],
      ["GET", "/v1/a2a/grade/1234567893"],
      ["POST", "/v1/a2a/keys"],
    ] as const) {
      const res = await httpRequestTo(`http://127.0.0.1:${port}${path}`, {
        method,
        ...(method === "POST" ? { body: { email: "a@b.example", organization: "x" } } : {}),
      });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe("https_required");
      expect(res.headers.connection).toBe("close");
    }
    const after = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    // Nothing reached the app: no audit events, no accounts created.
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("answers unknown paths with 404 not_found in the error shape", async () => {
    const res = await t.request("/nope");
    expect(res.status).toBe(404);
    expectErrorBody(res, "not_found");
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const res = await t.request("/healthz", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toContain("GET");
    expectErrorBody(res, "method_not_allowed");
  });

  it("refuses bodies over 10 MB with 413 before reading them", async () => {
    const res = await t
      .request("/v1/a2a/keys", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": String(10 * 1024 * 1024 + 1) },
        body: "{}",
      })
      .catch((err: Error) => err);
    // The server answers 413 and closes; depending on timing the client sees the answer or a reset.
    if (!(res instanceof Error)) {
      expect(res.status).toBe(413);
      expectErrorBody(res, "payload_too_large");
    }
  });

  it("refuses a streamed body that grows past 10 MB", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = rawHttps(
        `${t.url}/v1/a2a/keys`,
        { method: "POST", ca: t.ca, headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 12) {
          sent++;
          if (!req.write(chunk)) {
            req.once("drain", pump);
            return;
          }
        }
        req.end();
      };
      pump();
    }).catch(() => 413);
    expect(status).toBe(413);
  });

  it("requires JSON where JSON is expected (415) and valid JSON (400)", async () => {
    const form = await t.request("/v1/a2a/keys", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=a",
    });
    expect(form.status).toBe(415);
    expectErrorBody(form, "unsupported_media_type");
    const broken = await t.request("/v1/a2a/keys", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{nope",
    });
    expect(broken.status).toBe(400);
    expectErrorBody(broken, "invalid_json");
    const wrong = await t.request("/v1/a2a/keys", { method: "POST", body: { email: "nope", organization: "" } });
    expect(wrong.status).toBe(400);
    expectErrorBody(wrong, "invalid_body");
    expect(wrong.json.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      "email",
      "organization",
    ]);
  });

  it("refuses requests a trusted proxy received over plain HTTP", async () => {
    const proxied = await startTestServer({ env: { HCS_TRUST_PROXY: "1" } });
    try {
      const res = await proxied.request("/healthz", { headers: { "X-Forwarded-Proto": "http" } });
      expect(res.status).toBe(403);
      expectErrorBody(res, "https_required");
      expect((await proxied.request("/healthz", { headers: { "X-Forwarded-Proto": "https" } })).status).toBe(200);
    } finally {
      await proxied.close();
    }
    // Without HCS_TRUST_PROXY the header is ignored (a direct TLS connection is HTTPS).
    expect((await t.request("/healthz", { headers: { "X-Forwarded-Proto": "http" } })).status).toBe(200);
  });

  it("audits every request without secrets or bodies", async () => {
    const res = await t.request("/v1/a2a/grade/1234567893", { headers: { "X-API-Key": t.operatorKey } });
    const rid = res.headers["x-request-id"] as string;
    const row = await t.server.deps.store.db
      .selectFrom("audit_trail")
      .selectAll()
      .where("request_id", "=", rid)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      action: "hipaa.grade",
      transport: "rest",
      resource: "practice:1234567893",
      status: 404,
      code: "npi_not_found",
      outcome: "failure",
      client_ip: "127.0.0.1",
    });
    expect(row.actor_key_id).toMatch(/^key_/);
    const everything = JSON.stringify(await t.server.deps.store.db.selectFrom("audit_events").selectAll().execute());
    expect(everything).not.toContain(t.operatorKey);
    expect(everything).not.toContain("hcs_live_");
  });

  it("exposes health, readiness and Prometheus metrics", async () => {
    expect((await t.request("/readyz")).json).toEqual({
      status: "ready",
      store: "sqlite",
      details: {
        anchoring: { status: "not_configured", message: expect.stringContaining("not anchored") },
        feeds: [
          expect.objectContaining({
            feed: "hhs_breaches",
            imported: false,
            summary: "HHS OCR breach data not imported",
          }),
          expect.objectContaining({ feed: "kev", imported: false, summary: "KEV catalogue not imported" }),
          expect.objectContaining({ feed: "eol", imported: false, summary: "end-of-life data not imported" }),
        ],
      },
    });
    const metrics = await t.request("/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain("hcs_http_requests_total");
    expect(metrics.text).toMatch(/hcs_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
  });
});

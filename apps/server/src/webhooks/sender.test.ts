import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../lab/webhook-receiver.js";
import type { WebhookDeliveriesTable } from "../store/schema.js";
import { sendWebhook, type WebhookSenderOptions } from "./sender.js";
import {
  answer,
  endlessBody,
  hang,
  type ScriptedReceiver,
  startScriptedReceiver,
  trickleHeaders,
} from "./test-support/scripted-receiver.js";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.setSecret("whsec_test");
});
afterAll(() => receiver.close());

const delivery = (id: string, url = receiver.url) =>
  ({
    id,
    account_id: "acct",
    url,
    event: "scan.completed",
    body: JSON.stringify({ id }),
  }) as WebhookDeliveriesTable;

describe("sendWebhook certificate trust", () => {
  it("delivers to a receiver whose CA is among the extra CAs", async () => {
    const outcome = await sendWebhook(
      delivery("d1"),
      "whsec_test",
      { allowPrivateTargets: true, extraCaPem: [receiver.caPem] },
      new Date(),
    );
    expect(outcome).toEqual({ ok: true, status: 204 });
    expect(receiver.received.map((r) => [r.deliveryId, r.verified])).toEqual([["d1", true]]);
  });

  it("refuses a receiver whose certificate no trusted CA issued", async () => {
    const outcome = await sendWebhook(
      delivery("d2"),
      "whsec_test",
      { allowPrivateTargets: true, extraCaPem: [] },
      new Date(),
    );
    expect(outcome).toMatchObject({ ok: false, status: null, error: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" });
    expect(receiver.received.map((r) => r.deliveryId)).toEqual(["d1"]);
  });
});

describe("sendWebhook address pinning", () => {
  it("connects to the vetted address while SNI, the certificate check and Host use the URL's host", async () => {
    const seen: { host?: string; servername?: string | false | null } = {};
    const r = await startScriptedReceiver((req, res) => {
      seen.host = req.headers.host;
      seen.servername = (req.socket as TLSSocket).servername;
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    });
    try {
      const port = new URL(r.url).port;
      const resolved: string[] = [];
      // Custom resolvers only: no lookup leaves the machine.
      const resolve = async (host: string) => {
        resolved.push(host);
        return ["127.0.0.1"];
      };
      const options = { allowPrivateTargets: true, extraCaPem: [r.caPem], resolve };
      const ok = await sendWebhook(
        delivery("d3", `https://localhost:${port}/hooks`),
        "whsec_test",
        options,
        new Date(),
      );
      expect(ok).toEqual({ ok: true, status: 204 });
      expect(seen).toEqual({ host: `localhost:${port}`, servername: "localhost" });
      // A name the receiver's certificate does not cover is refused even though the address is the same.
      const other = await sendWebhook(
        delivery("d4", `https://hooks.example.test:${port}/hooks`),
        "whsec_test",
        options,
        new Date(),
      );
      expect(other).toMatchObject({ ok: false, status: null, code: "network", error: "ERR_TLS_CERT_ALTNAME_INVALID" });
      expect(resolved).toEqual(["localhost", "hooks.example.test"]);
    } finally {
      await r.close();
    }
  });
});

// A reply is never read into memory beyond a few KB, and every attempt is bounded in time, so a receiver cannot make
// the worker hold its body or wait on it (docs/webhooks.md#delivery-guarantees).
describe("sendWebhook reply limits", () => {
  const MiB = 1024 * 1024;
  const started: ScriptedReceiver[] = [];
  const start = async (script: Parameters<typeof startScriptedReceiver>[0]) => {
    const r = await startScriptedReceiver(script);
    started.push(r);
    return r;
  };
  afterAll(async () => {
    await Promise.all(started.map((r) => r.close()));
  });
  const send = async (r: ScriptedReceiver, o: Partial<WebhookSenderOptions> = {}) => {
    const t0 = performance.now();
    const outcome = await sendWebhook(
      delivery("d-limits", r.url),
      "whsec_test",
      {
        allowPrivateTargets: true,
        extraCaPem: [r.caPem],
        firstByteTimeoutMs: 500,
        totalTimeoutMs: 1500,
        ...o,
      },
      new Date(),
    );
    return { outcome, ms: performance.now() - t0 };
  };

  it("a 2xx with a 192 MiB body is a success read without buffering: memory stays flat and it ends at once", async () => {
    // Warm up TLS and module loading so that the measurement below sees only the reply.
    await send(await start(answer(204)));
    const huge = await start(endlessBody(200, 192 * MiB));
    const rssBefore = process.memoryUsage().rss;
    const { outcome, ms } = await send(huge, { firstByteTimeoutMs: 10_000, totalTimeoutMs: 20_000 });
    const grewMiB = (process.memoryUsage().rss - rssBefore) / MiB;
    await huge.close();
    console.info(
      `[measure] 2xx with 192 MiB body: ${ms.toFixed(0)} ms, RSS +${grewMiB.toFixed(1)} MiB, ` +
        `receiver pushed ${(huge.bytesSent / MiB).toFixed(1)} MiB before the socket was destroyed`,
    );
    expect(outcome).toEqual({ ok: true, status: 200 });
    expect(ms).toBeLessThan(1_000);
    expect(grewMiB).toBeLessThan(16);
    // The socket was destroyed, not drained: the receiver could not push the body.
    expect(huge.bytesSent).toBeLessThan(32 * MiB);
  });

  it("an error answer with an endless body fails at once, keeping a short excerpt for last_error", async () => {
    const r = await start(endlessBody(500, 192 * MiB));
    const { outcome, ms } = await send(r, { firstByteTimeoutMs: 10_000, totalTimeoutMs: 20_000 });
    expect(outcome).toMatchObject({ ok: false, status: 500, code: "http_status" });
    expect(outcome.ok ? "" : outcome.error).toMatch(/^receiver answered 500: x+/);
    expect(outcome.ok ? 0 : outcome.error.length).toBeLessThanOrEqual(300);
    expect(ms).toBeLessThan(1_000);
  });

  it("a receiver that never answers fails at the first-byte cap", async () => {
    const { outcome, ms } = await send(await start(hang));
    expect(outcome).toMatchObject({ ok: false, status: null, code: "first_byte_timeout" });
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(1_200);
  });

  it("a receiver that trickles its reply forever fails at the total cap", async () => {
    const { outcome, ms } = await send(await start(trickleHeaders(50)));
    expect(outcome).toMatchObject({ ok: false, status: null, code: "total_timeout" });
    expect(ms).toBeGreaterThanOrEqual(1_450);
    expect(ms).toBeLessThan(2_500);
  });

  it("a redirect is a failed attempt and is not followed", async () => {
    const elsewhere = await start(answer(204));
    const { outcome } = await send(await start(answer(302, { location: elsewhere.url })));
    expect(outcome).toMatchObject({ ok: false, status: 302, code: "redirect" });
    expect(elsewhere.requests).toBe(0);
  });
});

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

// The test client connects from 127.0.0.1, which plays the one trusted load balancer (HCS_TRUST_PROXY=1): the
// address it appends last is the client's; anything before it was written by the client.
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { HCS_TRUST_PROXY: "1" }, now: () => new Date("2026-11-22T12:00:05.000Z") });
});
afterAll(async () => {
  await t.close();
});

const randomIpv4 = () => [...randomBytes(4)].join(".");
const freeKey = (xff: string, i: number) =>
  t.request("/v1/a2a/keys", {
    method: "POST",
    headers: { "X-Forwarded-For": xff },
    body: { email: `k${i}@clinic.example`, organization: "Clinic" },
  });

describe("HCS_TRUST_PROXY: the client cannot choose its own address", () => {
  it("rotating client-written X-Forwarded-For entries does not yield more than 5 free keys per address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await freeKey(`${randomIpv4()}, 198.51.100.7`, i)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    // Another client behind the same proxy is a different address, with its own allowance.
    expect((await freeKey("198.51.100.8", 100)).status).toBe(201);
  });

  it("stores a validated address in the audit trail, never client-chosen text", async () => {
    const script = `<script>${"x".repeat(3000)}</script>`;
    const viaProxy = await freeKey(`${script}, 203.0.113.77`, 200);
    const garbageOnly = await freeKey(script, 201);
    expect(viaProxy.status).toBe(201);
    expect(garbageOnly.status).toBe(201);
    const rows = await t.server.deps.store.db
      .selectFrom("audit_trail")
      .select(["request_id", "client_ip"])
      .where("request_id", "in", [
        viaProxy.headers["x-request-id"] as string,
        garbageOnly.headers["x-request-id"] as string,
      ])
      .execute();
    const ipOf = (res: typeof viaProxy) => rows.find((r) => r.request_id === res.headers["x-request-id"])?.client_ip;
    expect(ipOf(viaProxy)).toBe("203.0.113.77");
    // Only the proxy itself vouched for anything: its address is recorded.
    expect(ipOf(garbageOnly)).toBe("127.0.0.1");
    // Every HTTP call's (the bootstrap account's events came from the server's start, over no network: no address).
    const all = await t.server.deps.store.db
      .selectFrom("audit_trail")
      .select("client_ip")
      .where("transport", "not in", ["cli", "worker"])
      .execute();
    expect(all.every((r) => /^[0-9a-f.:]+$/.test(r.client_ip ?? ""))).toBe(true);
  });

  it("buckets anonymous IPv6 clients by /64: rotating the interface id does not escape the limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) {
      const iid = randomBytes(8).toString("hex").match(/.{4}/g)!.join(":");
      const res = await t.request("/v1/a2a/grade/1234567893", {
        headers: { "X-Forwarded-For": `2001:db8:7:7:${iid}` },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 429]);
    // A different /64 is a different client.
    const other = await t.request("/v1/a2a/grade/1234567893", { headers: { "X-Forwarded-For": "2001:db8:7:8::1" } });
    expect(other.status).toBe(401);
  });
});

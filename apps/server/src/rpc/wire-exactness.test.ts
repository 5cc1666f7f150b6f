import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccount } from "../services/accounts.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { shouldRunPostgres } from "../test-support/postgres.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

const runPg = await shouldRunPostgres();
const NPI = "1234567893";

// POST /api/a2a is served ahead of Koa by http/hot-routes.ts on its plain path; with a query string it goes through
// Koa's chain and the router. Both must answer alike.
const PATHS = ["/api/a2a", "/api/a2a?via=koa"] as const;

// Tables a call that is not run must leave as they were.
const TABLES = ["credit_ledger", "jobs", "audit_events", "policy_documents", "business_associates"] as const;

for (const engine of ["sqlite", "postgres"] as const) {
  describe.skipIf(engine === "postgres" && !runPg)(`JSON-RPC on the wire, exactly (${engine})`, () => {
    let t: TestServer;
    let key: string;
    let accountId: string;

    beforeAll(async () => {
      t = await startTestServer({ engine });
      const a = await accountWithKey(t.server.deps, { credits: 100_000, tier: "bulk" });
      key = a.apiKey;
      accountId = a.accountId;
      await gradedPractice(t.server.deps, accountId, NPI);
    });
    afterAll(async () => {
      await t?.close();
    });

    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      t.request(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-API-Key": key, "A2A-Version": "1.0", ...headers },
        body,
      });
    const balance = async () => (await getAccount(t.server.deps, accountId)).credits;
    const rows = async () => {
      const counts = {} as Record<(typeof TABLES)[number], number>;
      for (const table of TABLES) {
        const row = await t.server.deps.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow();
        counts[table] = Number(row.n);
      }
      return counts;
    };

    describe.each(PATHS)("%s", (path) => {
      it("echoes number ids as written — beyond 2^53, with a fraction or an exponent — and string ids as strings", async () => {
        const ids = ["12345678901234567891", "9007199254740993", "-9007199254740993", "1.0", "1e2", "-0", "1E400"];
        for (const id of ids) {
          const res = await post(path, `{"jsonrpc":"2.0","id":${id},"method":"hipaa.get_controls","params":{}}`);
          expect(res.status).toBe(200);
          expect(res.text.startsWith(`{"jsonrpc":"2.0","id":${id},"result":`), res.text.slice(0, 80)).toBe(true);
        }
        const stringId = await post(path, '{"jsonrpc":"2.0","id":"12345678901234567891","method":"hipaa.reputation"}');
        expect(stringId.json.id).toBe("12345678901234567891");
        // Spaces around the member, an escaped member name, a repeated member (the last counts, as in JSON.parse),
        // and ids in strings elsewhere in the request do not confuse the reading.
        const tricky = await post(
          path,
          ' { "params" : {"ids":["x\\"}],\\"id\\":1"]} , "\\u0069d" :\t12345678901234567891 ,"jsonrpc":"2.0", "id": ' +
            '\n 98765432109876543210 , "method":"hipaa.get_controls" } ',
        );
        expect(tricky.text.startsWith('{"jsonrpc":"2.0","id":98765432109876543210,')).toBe(true);
      });

      it("echoes each id of a batch as written, answered in any order", async () => {
        const ids = ["12345678901234567891", "12345678901234567892", '"12345678901234567893"', "7", "null"];
        const batch = `[${ids.map((id) => `{"jsonrpc":"2.0","id":${id},"method":"hipaa.get_controls","params":{"ids":["164.308(a)(1)"]}}`).join(" , ")}, 5, {"jsonrpc":"2.0","id":12345678901234567894,"method":"hipaa.grade","params":null}]`;
        const res = await post(path, batch);
        expect(res.status).toBe(200);
        const echoed = [...res.text.matchAll(/\{"jsonrpc":"2\.0","id":("[^"]*"|[^,]+),/g)].map((m) => m[1]);
        expect(echoed.sort()).toEqual([...ids, "null", "12345678901234567894"].sort());
        expect(res.text).toContain('{"jsonrpc":"2.0","id":12345678901234567894,"error":{"code":-32600,');
      });

      it("refuses params: null as an Invalid Request (-32600), single and in a batch, and charges nothing", async () => {
        const before = await balance();
        const single = await post(path, '{"jsonrpc":"2.0","id":41,"method":"hipaa.grade","params":null}');
        expect(single.json).toEqual({
          jsonrpc: "2.0",
          id: 41,
          error: { code: -32600, message: expect.stringContaining("params must be an object or an array") },
        });
        const batch = await post(
          path,
          `[{"jsonrpc":"2.0","id":1,"method":"hipaa.grade","params":null},{"jsonrpc":"2.0","id":2,"method":"hipaa.grade","params":{"npi":"${NPI}"}}]`,
        );
        const byId = Object.fromEntries(batch.json.map((r: { id: number }) => [r.id, r]));
        expect(byId[1].error.code).toBe(-32600);
        expect(byId[2].result.npi).toBe(NPI);
        // Only the valid entry was charged; leaving params out is still fine.
        expect(await balance()).toBe(before - 25);
        const omitted = await post(path, '{"jsonrpc":"2.0","id":3,"method":"hipaa.reputation"}');
        expect(omitted.json.result).toHaveProperty("sha256");
      });

      it("runs no notification: paid, writing or free, single or batched, nothing is charged or written", async () => {
        const before = { balance: await balance(), rows: await rows() };
        const notifications = [
          { jsonrpc: "2.0", method: "hipaa.grade", params: { npi: NPI } },
          { jsonrpc: "2.0", method: "hipaa.scan", params: { npi: NPI } },
          { jsonrpc: "2.0", method: "hipaa.policies", params: { npi: NPI, generate: [1, 2] } },
          { jsonrpc: "2.0", method: "hipaa.findings", params: { npi: NPI } },
          {
            jsonrpc: "2.0",
            method: "hipaa.baa",
            params: {
              npi: NPI,
              action: "upsert",
              vendor: { name: "Notified Vendor", services: "billing", phi_access: true, baa_status: "none" },
            },
          },
          {
            jsonrpc: "2.0",
            method: "SendMessage",
            params: {
              message: {
                messageId: "m-1",
                role: "ROLE_USER",
                parts: [{ data: { skill: "hipaa.scan", params: { npi: NPI } } }],
              },
              configuration: { returnImmediately: true },
            },
          },
          { jsonrpc: "2.0", method: "hipaa.nope", params: {} },
        ];
        for (const n of notifications) {
          const single = await post(path, JSON.stringify(n));
          expect([single.status, single.text], n.method).toEqual([204, ""]);
          // Counted against the rate limit all the same.
          expect(single.headers["x-ratelimit-limit"]).toBe("600");
        }
        const batch = await post(path, JSON.stringify(notifications));
        expect([batch.status, batch.text]).toEqual([204, ""]);
        // Beside a call, only the call is run and answered.
        const mixed = await post(
          path,
          JSON.stringify([...notifications, { jsonrpc: "2.0", id: "c", method: "hipaa.grade", params: { npi: NPI } }]),
        );
        expect(mixed.json).toEqual([
          expect.objectContaining({ id: "c", result: expect.objectContaining({ npi: NPI }) }),
        ]);
        const after = await rows();
        expect(await balance()).toBe(before.balance - 25);
        expect(after).toEqual({
          ...before.rows,
          credit_ledger: before.rows.credit_ledger + 1,
          audit_events: before.rows.audit_events + 1,
        });
        // Each one is logged with its reason and counted in the metrics.
        const logged = t.logs.filter((l) => l.includes("JSON-RPC notification not run"));
        expect(logged.length).toBeGreaterThanOrEqual(3 * notifications.length);
        expect(JSON.parse(logged.at(-1)!)).toMatchObject({ reason: expect.stringContaining("not run, charged") });
        const metrics = (await t.request("/metrics")).text;
        expect(metrics).toMatch(/hcs_jsonrpc_notifications_not_run_total\{method="hipaa\.scan"\} [1-9]/);
        expect(metrics).toMatch(/hcs_jsonrpc_notifications_not_run_total\{method="\(unknown\)"\} [1-9]/);
      });
    });
  });
}

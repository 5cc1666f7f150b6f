import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shouldRunPostgres, TEST_PG_URL } from "../test-support/postgres.js";
import { startTcpProxy, type TcpProxy } from "../test-support/tcp-proxy.js";
import { isStoreUnavailable } from "./availability.js";

const runPg = await shouldRunPostgres();

/**
 * PostgreSQL ends a session on its own when a transaction idles past idle_in_transaction_session_timeout (25P03)
 * or a session past idle_session_timeout (57P05). Its FATAL reaches the client as the error of whatever query is
 * waiting then — found by bench/soak: a transaction's statement was held in a 10 s blackhole, its read timed out,
 * Kysely's ROLLBACK (whose error replaces the statement's) was sent when the network came back, just after the
 * server had ended the idle transaction (10 s), and the call was answered 500. It means what a lost connection means:
 * the store could not serve the call; retry.
 */
describe.skipIf(!runPg)("a session the database ended for idling", () => {
  let proxy: TcpProxy;
  beforeAll(async () => {
    const target = new URL(TEST_PG_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  });
  afterAll(async () => {
    proxy.restore();
    await proxy.close();
  });

  it("is the store unavailable (503), not an internal error, when its FATAL answers a waiting query", async () => {
    const url = new URL(TEST_PG_URL);
    url.host = `127.0.0.1:${proxy.port}`;
    const client = new pg.Client({ connectionString: url.toString() });
    client.on("error", () => {});
    await client.connect();
    try {
      await client.query("set idle_in_transaction_session_timeout = '300ms'");
      await client.query("begin");
      await client.query("select 1");
      // The next statement is held on the way; the server, seeing the transaction idle, ends the session meanwhile.
      proxy.blackhole();
      const waiting = client.query("select 2").then(
        () => null,
        (err: unknown) => err,
      );
      await new Promise((r) => setTimeout(r, 800));
      proxy.restore();
      const err = (await waiting) as { code?: string; severity?: string } | null;
      expect(err).toMatchObject({ code: "25P03", severity: "FATAL" });
      expect(isStoreUnavailable(err)).toBe(true);
    } finally {
      await client.end().catch(() => {});
    }
  });

  it("idle_session_timeout's FATAL (57P05) is the same", () => {
    const err = Object.assign(new Error("terminating connection due to idle-session timeout"), {
      code: "57P05",
      severity: "FATAL",
    });
    expect(isStoreUnavailable(err)).toBe(true);
  });
});

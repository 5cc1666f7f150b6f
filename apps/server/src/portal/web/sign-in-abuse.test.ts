import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey } from "../../test-support/fixtures.js";
import { PortalClient } from "../../test-support/portal-client.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";
import { LOCKOUT_AFTER_FAILURES } from "../sign-in.js";

/*
 * Anonymous sign-in attempts must not grow the permanent audit log (docs/portal.md, "Audit"; docs/security.md):
 * refused ones are counted in /metrics and throttled per client address — per /64 for IPv6 — and only a lock-out
 * starting is an audit event. Over real HTTPS, behind one trusted proxy (HCS_TRUST_PROXY=1), so that the test can
 * be many clients: the proxy's X-Forwarded-For names each.
 */

const PER_MINUTE = 20; // portal-router.tsx SIGN_INS_PER_MINUTE

function signInAbuseSuite(engine: "sqlite" | "postgres") {
  describe(`refused portal sign-ins (${engine})`, () => {
    let t: TestServer;
    let accountId: string;

    beforeAll(async () => {
      t = await startTestServer({ engine, env: { HCS_TRUST_PROXY: "1" } });
      accountId = (await accountWithKey(t.server.deps, { plan: "professional" })).accountId;
    });
    afterAll(async () => {
      await t?.close();
    });

    const auditCount = async () =>
      Number(
        (
          await t.server.deps.store.db
            .selectFrom("audit_entries")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    /** The counter's value for one label set in the /metrics text (0 when the series does not exist yet). */
    const refusals = async (step: string, code: string) => {
      const text = (await t.request("/metrics")).text;
      const line = text
        .split("\n")
        .find((l) => l.startsWith(`hcs_portal_sign_in_refusals_total{step="${step}",code="${code}"}`));
      return line ? Number(line.split(" ").at(-1)) : 0;
    };
    /** A browser behind the trusted proxy, as the client `address`, with the sign-in form loaded. */
    const clientAt = async (address: string) => {
      const browser = new PortalClient(t, { "X-Forwarded-For": address });
      expect((await browser.get("/portal/sign-in")).status).toBe(200);
      return browser;
    };
    const attempt = (browser: PortalClient, email: string, password = "not the password at all") =>
      browser.post("/portal/sign-in", { email, password });

    it("N refused sign-ins add no audit event, are counted in /metrics, and the address is throttled (429)", async () => {
      const before = await auditCount();
      const unknownBefore = await refusals("password", "invalid_credentials");
      const limitedBefore = await refusals("password", "rate_limited");
      const browser = await clientAt("192.0.2.10");
      for (let i = 0; i < PER_MINUTE; i++)
        expect((await attempt(browser, `nobody${i}@clinic.example`)).status).toBe(401);
      const over = await attempt(browser, "nobody@clinic.example");
      expect(over.status).toBe(429);
      expect(over.headers["retry-after"]).toBe("60");
      expect(over.text).toContain("Too many sign-in attempts");
      for (let i = 0; i < 30; i++) expect((await attempt(browser, "nobody@clinic.example")).status).toBe(429);
      // Another address is not throttled by this one's attempts.
      expect((await attempt(await clientAt("192.0.2.11"), "nobody@clinic.example")).status).toBe(401);

      expect(await auditCount()).toBe(before);
      expect((await refusals("password", "invalid_credentials")) - unknownBefore).toBe(PER_MINUTE + 1);
      expect((await refusals("password", "rate_limited")) - limitedBefore).toBe(31);
    });

    it("throttles IPv6 clients per /64, as the API's anonymous limits", async () => {
      const first = await clientAt("2001:db8:1:2::1");
      for (let i = 0; i < PER_MINUTE; i++) expect((await attempt(first, "nobody@clinic.example")).status).toBe(401);
      // Another address of the same /64 shares its count; an address of the next /64 does not.
      expect((await attempt(await clientAt("2001:db8:1:2:ffff:ffff:ffff:fffe"), "nobody@clinic.example")).status).toBe(
        429,
      );
      expect((await attempt(await clientAt("2001:db8:1:3::1"), "nobody@clinic.example")).status).toBe(401);
    });

    it("audits the failure that locks a sign-in, and no attempt refused while it is locked", async () => {
      const { browser: owner } = await invitedAndSignedIn(t, accountId, "locked@clinic.example", "viewer");
      expect(owner).toBeTruthy();
      const events = () =>
        t.server.deps.store.db
          .selectFrom("audit_events")
          .select(["action", "outcome", "status", "code", "resource"])
          .where("action", "like", "portal.sign-in%")
          .where("actor_account_id", "=", accountId)
          .execute();
      const before = await auditCount();
      const browser = await clientAt("192.0.2.20");
      for (let i = 0; i < LOCKOUT_AFTER_FAILURES; i++)
        expect((await attempt(browser, "locked@clinic.example")).status).toBe(401);
      for (let i = 0; i < 5; i++) expect((await attempt(browser, "locked@clinic.example")).status).toBe(423);
      expect(await auditCount()).toBe(before + 1);
      const locked = (await events()).filter((e) => e.action === "portal.sign-in.locked");
      expect(locked).toEqual([
        {
          action: "portal.sign-in.locked",
          outcome: "denied",
          status: 423,
          code: "account_locked",
          resource: expect.stringMatching(/^user:/),
        },
      ]);
      expect((await events()).filter((e) => e.outcome === "denied" && e.action !== "portal.sign-in.locked")).toEqual(
        [],
      );
    });
  });
}

signInAbuseSuite("sqlite");
describe.skipIf(!(await shouldRunPostgres()))("on PostgreSQL", () => signInAbuseSuite("postgres"));

import { AccountOverviewSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAccountPlan } from "../../services/account-plans.js";
import { topUpCredits } from "../../services/credit-top-ups.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

const NPI = "1234567893";
const CONTACT = "sales@hcs.example.org";

/** The cells of each body row of the page's section with this id (text only, tags removed). */
function sectionRows(html: string, id: string): string[][] {
  const section = new RegExp(`<section[^>]*id="${id}"[^>]*>([\\s\\S]*?)</section>`).exec(html)?.[1];
  if (section === undefined) throw new Error(`no section #${id}`);
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(section)?.[1] ?? "";
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, "").trim()),
  );
}

const n = (x: number) => x.toLocaleString("en-US");

/** Settings → API access shows what GET /v1/a2a/account answers, and the ledger; over HTTPS, both engines. */
function accountPageSuite(engine: "sqlite" | "postgres") {
  describe(`the portal's API access page (${engine})`, () => {
    let t: TestServer;
    // A month and a day ago, moved on by the test; null: the real time (signing in checks a TOTP code made now).
    let clock: number | null = Date.now() - 31 * 86_400_000 - 60_000;
    beforeAll(async () => {
      t = await startTestServer({
        engine,
        now: () => new Date(clock ?? Date.now()),
        env: { HCS_CONTACT_EMAIL: CONTACT },
      });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    it("shows the balance, plan, rate limits, this period's usage and every statement as the API does, with the ledger", async () => {
      const deps = t.server.deps;
      const owner = await accountWithKey(deps, { plan: "free", credits: 500, name: "Lakeside Family" });
      await gradedPractice(deps, owner.accountId, NPI);
      const api = (path: string, method: "GET" | "POST" = "GET") =>
        t.request(path, { method, headers: { "X-API-Key": owner.apiKey }, ...(method === "POST" ? { body: {} } : {}) });
      expect((await api(`/v1/a2a/grade/${NPI}`)).status).toBe(200);
      expect((await api(`/v1/a2a/findings/${NPI}`)).status).toBe(200);
      clock! += 30 * 86_400_000;
      await setAccountPlan(deps, { accountId: owner.accountId, plan: "professional" });
      await topUpCredits(deps, { accountId: owner.accountId, credits: 5000, reference: "INV-7" });
      clock! += 86_400_000;
      expect((await api(`/v1/a2a/sra/${NPI}`, "POST")).status).toBe(200);
      clock = null;
      const overview = AccountOverviewSchema.parse((await api("/v1/a2a/account")).json);

      const { browser } = await invitedAndSignedIn(t, owner.accountId, "owner@lakeside.example", "owner");
      const page = await browser.get("/portal/settings/api");
      expect(page.status).toBe(200);
      expect(page.text).toContain(`<p class="big">${n(overview.balance)}</p>`);
      expect(page.text).toContain(`<p class="big">Professional</p>`);
      expect(page.text).toContain(`href="mailto:${CONTACT}"`);
      expect(sectionRows(page.text, "usage")).toEqual(
        overview.current_period.usage.map((l) => [
          l.operation.replace(/_/g, " "),
          n(l.calls),
          n(l.charged),
          n(l.refunded),
          n(l.credits),
        ]),
      );
      expect(sectionRows(page.text, "usage")).toEqual([["sra", "1", "500", "0", "500"]]);
      const statements = [overview.current_period, ...overview.past_periods];
      expect(sectionRows(page.text, "statements")).toEqual(
        statements.map((s) => [
          `${s.start.slice(0, 10)} to ${s.end.slice(0, 10)}`,
          s.plan,
          s.state,
          n(s.usage_credits),
          n(s.annual_minimum),
          n(s.minimum_shortfall),
          n(s.credits_added),
          n(s.opening_balance),
          n(s.closing_balance),
        ]),
      );
      expect(statements.map((s) => [s.plan, s.usage_credits, s.closing_balance])).toEqual([
        ["professional", 500, 4950],
        ["free", 50, 450],
      ]);
      // The ledger's rows, newest first, end at the balance shown.
      const ledger = sectionRows(page.text, "ledger");
      expect(ledger.map((r) => [r[1], r[2], r[3]])).toEqual([
        ["sra", "-500", "4950"],
        ["grant", "+5000", "5450"],
        ["findings", "-25", "450"],
        ["grade", "-25", "475"],
        ["opening_balance", "+500", "500"],
      ]);
    });
  });
}

accountPageSuite("sqlite");
describe.skipIf(!(await shouldRunPostgres()))("postgres", () => accountPageSuite("postgres"));

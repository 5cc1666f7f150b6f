import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncidentRecordSchema } from "../../administrative/incident-schema.js";
import { createIncident } from "../../administrative/incidents.js";
import { generatePolicies } from "../../administrative/policies/policy-documents.js";
import { recordTraining } from "../../administrative/training.js";
import { evaluateCookies } from "../../external-scan/site/cookies-check.js";
import { evaluateSecurityHeaders } from "../../external-scan/site/security-headers-check.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { PortalClient } from "../../test-support/portal-client.js";
import { invitedAndSignedIn, PORTAL_TEST_PASSWORD } from "../../test-support/portal-sign-in.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";
import { totpCodeAt } from "../totp.js";
import { PORTAL_CSP } from "./security-headers.js";

const PASSWORD = PORTAL_TEST_PASSWORD;
const NPI = "1234567893";

const headersOf = (h: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(", ") : (v ?? "")]));

describe("the customer portal over HTTPS", () => {
  let t: TestServer;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestServer();
    accountId = (await accountWithKey(t.server.deps, { plan: "professional", name: "Sunrise <Clinic> & Co" }))
      .accountId;
    await gradedPractice(t.server.deps, accountId, NPI);
  });
  afterAll(() => t.close());

  it("answers with the headers and cookie flags its own external scan demands (no findings)", async () => {
    const res = await t.request("/portal/sign-in");
    expect(res.status).toBe(200);
    const headers = headersOf(res.headers);
    expect(headers["content-security-policy"]).not.toContain("unsafe-inline");
    expect(evaluateSecurityHeaders("127.0.0.1", `${t.url}/portal/sign-in`, headers, res.text)).toEqual([]);
    const setCookies = res.headers["set-cookie"] as string[];
    expect(setCookies.length).toBeGreaterThan(0);
    expect(evaluateCookies("127.0.0.1", [{ url: `${t.url}/portal/sign-in`, set_cookies: setCookies }])).toEqual([]);
    // Unknown portal paths are pages too, with the same headers.
    const missing = await t.request("/portal/no-such-page");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toMatch(/text\/html/);
    expect(missing.headers["x-frame-options"]).toBe("DENY");
  });

  it("links its privacy notice from every page; the notice is public and names the cookies and the idle log-off", async () => {
    const signIn = await t.request("/portal/sign-in");
    expect(signIn.text).toContain('<footer class="page-footer"><a href="/portal/privacy">Privacy</a></footer>');
    // No cookie sent: readable before signing in (the scan, like any visitor, reads it so).
    const privacy = await t.request("/portal/privacy");
    expect(privacy.status).toBe(200);
    expect(privacy.headers["content-security-policy"]).toBe(PORTAL_CSP);
    expect(privacy.headers["cache-control"]).toBe("no-store");
    expect(privacy.text).toContain("<h1>Privacy</h1>");
    for (const cookie of ["__Host-hcs_pre", "__Host-hcs_session"]) expect(privacy.text).toContain(cookie);
    expect(privacy.text).toContain("signed out after 15 minutes without activity");
    expect(privacy.headers["set-cookie"]).toBeUndefined();
  });

  it("refuses a form without its CSRF token, or with another session's", async () => {
    const browser = new PortalClient(t);
    await browser.get("/portal/sign-in");
    const without = await browser.post("/portal/sign-in", { email: "x@y.example", password: "whatever" }, false);
    expect(without.status).toBe(403);
    expect(without.text).toContain("did not come from this site");
    const other = new PortalClient(t);
    await other.get("/portal/sign-in");
    const foreign = await browser.post("/portal/sign-in", { email: "x@y.example", password: "whatever" }, other.csrf());
    expect(foreign.status).toBe(403);
  });

  it("invitation → password → TOTP enrolment → sign-in with a code → dashboard; a deploy token needs the CSRF token", async () => {
    const { browser, secret } = await invitedAndSignedIn(t, accountId, "owner@sunrise.example", "owner");
    const dashboard = await browser.get(`/portal/practices/${NPI}`);
    expect(dashboard.status).toBe(200);
    // The account name is escaped by the template library, never interpreted.
    expect(dashboard.text).toContain("Sunrise &lt;Clinic> &amp; Co");
    expect(dashboard.text).not.toContain("<Clinic>");
    expect(dashboard.text).toContain('<a href="/portal/privacy">Privacy</a>');

    const forged = await browser.post(`/portal/practices/${NPI}/scanner/deploy-token`, { max_uses: "1" }, false);
    expect(forged.status).toBe(403);
    const tokens = () =>
      t.server.deps.store.db.selectFrom("deploy_tokens").selectAll().where("npi", "=", NPI).execute();
    expect(await tokens()).toHaveLength(0);
    await browser.get(`/portal/practices/${NPI}/scanner`);
    const issued = await browser.post(`/portal/practices/${NPI}/scanner/deploy-token`, { max_uses: "1" });
    expect(issued.status).toBe(201);
    expect(issued.text).toContain("hcs-scanner register");
    expect(await tokens()).toHaveLength(1);

    // Sign out, then sign in again: password, then a fresh code (the enrolment's code is not accepted twice).
    await browser.post("/portal/sign-out", {});
    expect((await browser.get(`/portal/practices/${NPI}`)).status).toBe(303);
    await browser.get("/portal/sign-in");
    const password = await browser.post("/portal/sign-in", { email: "owner@sunrise.example", password: PASSWORD });
    expect(password.headers.location).toBe("/portal/sign-in/code");
    await browser.get("/portal/sign-in/code");
    const code = await browser.post("/portal/sign-in/code", {
      code: totpCodeAt(secret!, new Date(Date.now() + 30_000)),
    });
    expect(code.status).toBe(303);
    expect((await browser.get(`/portal/practices/${NPI}`)).status).toBe(200);

    const events = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select(["action", "outcome", "actor_operator", "resource"])
      .where("transport", "=", "portal")
      .execute();
    const actions = events.map((e) => `${e.action}:${e.outcome}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        "portal.invite.accept:success",
        "portal.mfa.enrol:success",
        "createDeployToken:success",
        "portal.sign-out:success",
        "portal.sign-in:success",
        "portal.sign-in.second-factor:success",
      ]),
    );
    expect(events.every((e) => e.actor_operator?.startsWith("user:usr_"))).toBe(true);
    // Nothing secret reached the logs.
    const logs = t.logs.join("\n");
    expect(logs).not.toContain(PASSWORD);
    expect(logs).not.toContain(secret!);
    expect(logs).not.toContain(browser.cookie("__Host-hcs_session")!);
  });

  it("shows the practice's records (incidents with their clock, training, policies) and downloads a policy", async () => {
    const deps = t.server.deps;
    await generatePolicies(deps, NPI, [1]);
    await createIncident(
      deps,
      NPI,
      IncidentRecordSchema.parse({
        title: "Laptop <stolen> from car",
        category: "theft",
        discovered_on: new Date().toISOString().slice(0, 10),
        phi_involved: true,
        individuals_affected: 40,
      }),
    );
    const today = new Date().toISOString().slice(0, 10);
    await recordTraining(deps, NPI, {
      members: [
        { member_id: "m1", name: "Dana Front-Desk", role: "reception", hired_on: "2025-01-06", terminated_on: null },
      ],
      completions: [{ member_id: "m1", course: "hipaa_security_awareness", completed_on: today }],
    });
    const { browser } = await invitedAndSignedIn(t, accountId, "records@sunrise.example", "viewer");
    const page = await browser.get(`/portal/practices/${NPI}/records`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Laptop &lt;stolen> from car");
    expect(page.text).toContain("individuals:");
    expect(page.text).toContain("Dana Front-Desk");
    expect(page.text).toContain("1 of 24 current");
    const doc = await browser.get(`/portal/practices/${NPI}/policies/1?format=markdown`);
    expect(doc.status).toBe(200);
    expect(doc.headers["content-type"]).toMatch(/text\/markdown/);
    expect(doc.headers["content-disposition"]).toMatch(/^attachment; filename="policy-01-.*-v1\.md"$/);
    expect((await browser.get(`/portal/practices/${NPI}/policies/2`)).status).toBe(404);
    // Another account's practice is not found, whatever the page.
    const other = await accountWithKey(deps, { plan: "professional" });
    await gradedPractice(deps, other.accountId, "1679576722");
    expect((await browser.get("/portal/practices/1679576722/records")).status).toBe(404);
    expect((await browser.get("/portal/practices/1679576722")).status).toBe(404);
  });

  it("a wrong password is refused and counted, not audited; a viewer cannot create deploy tokens", async () => {
    const { browser } = await invitedAndSignedIn(t, accountId, "viewer@sunrise.example", "viewer");
    await browser.get(`/portal/practices/${NPI}/scanner`);
    expect(browser.last?.text).not.toContain("Create deploy token");
    const refused = await browser.post(`/portal/practices/${NPI}/scanner/deploy-token`, { max_uses: "1" });
    expect(refused.status).toBe(403);

    const stranger = new PortalClient(t);
    await stranger.get("/portal/sign-in");
    const wrong = await stranger.post("/portal/sign-in", { email: "viewer@sunrise.example", password: "not the one" });
    expect(wrong.status).toBe(401);
    const denied = await t.server.deps.store.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "portal.sign-in")
      .where("outcome", "=", "denied")
      .execute();
    expect(denied).toEqual([]);
    expect((await t.request("/metrics")).text).toMatch(
      /hcs_portal_sign_in_refusals_total\{step="password",code="invalid_credentials"\} [1-9]/,
    );
  });
});

describe("inactivity log-off (HCS_PORTAL_IDLE_MINUTES)", () => {
  let t: TestServer;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestServer({ env: { HCS_PORTAL_IDLE_MINUTES: "0.05" } }); // 3 seconds
    accountId = (await accountWithKey(t.server.deps, { plan: "free" })).accountId;
    await gradedPractice(t.server.deps, accountId, NPI);
  });
  afterAll(() => t.close());

  it("ends a session idle longer than the setting and says why; activity keeps it alive", async () => {
    const { browser } = await invitedAndSignedIn(t, accountId, "idle@clinic.example", "viewer");
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 1_200));
      expect((await browser.get(`/portal/practices/${NPI}`)).status).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 3_500));
    const expired = await browser.get(`/portal/practices/${NPI}`);
    expect(expired.status).toBe(303);
    expect(expired.headers.location).toBe("/portal/sign-in?idle=1");
    expect((await browser.get("/portal/sign-in?idle=1")).text).toContain("signed out after 0.05 minutes");
    const ended = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select("action")
      .where("action", "=", "portal.session.expired")
      .execute();
    expect(ended).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../administrative/calendar-date.js";
import { enrolledPracticeFor } from "../../test-support/enrolled-practice.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import type { PortalClient } from "../../test-support/portal-client.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { scanDocumentAbout } from "../../test-support/scan-documents.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * Keeping a practice's records in the portal over real HTTPS, signed in through the pages: the scanner page's last
 * scan of each agent, the training roster uploaded as a CSV file, incidents recorded and moved on with their
 * notification clock, business associates and their BAA dates. Changes go through the API's own operations (the
 * portal bridge): audited with transport portal naming the person, charged as the API charges them (nothing).
 */

const NPI = "1306849450";

const cells = (row: string) =>
  [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));
const rowOf = (html: string, text: string) =>
  [...html.matchAll(/<tr>[\s\S]*?<\/tr>/g)].map((m) => m[0]).find((r) => r.includes(text));
const today = () => new Date().toISOString().slice(0, 10);

// PostgreSQL only when reachable, as every other suite: skipped with a printed reason, or failing under
// HCS_TEST_PG=required (README).
const ENGINES = (await shouldRunPostgres()) ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

describe.each(ENGINES)("portal records editing (%s)", (engine) => {
  let t: TestServer;
  let owner: Awaited<ReturnType<typeof accountWithKey>>;
  let manager: PortalClient;
  let viewer: PortalClient;

  const portalEvents = (action: string) =>
    t.server.deps.store.db
      .selectFrom("audit_events")
      .select(["action", "outcome", "status", "actor_operator", "actor_key_id", "resource", "transport"])
      .where("transport", "=", "portal")
      .where("action", "=", action)
      .orderBy("id")
      .execute();
  const creditsAndLedger = async () => {
    const db = t.server.deps.store.db;
    const account = await db
      .selectFrom("accounts")
      .select("credits")
      .where("id", "=", owner.accountId)
      .executeTakeFirstOrThrow();
    const ledger = await db
      .selectFrom("credit_ledger")
      .select("id")
      .where("account_id", "=", owner.accountId)
      .execute();
    return { credits: account.credits, ledger: ledger.length };
  };

  beforeAll(async () => {
    t = await startTestServer({ engine });
    owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 1000 });
    await gradedPractice(t.server.deps, owner.accountId, NPI);
    manager = (await invitedAndSignedIn(t, owner.accountId, "manager@records.example", "manager")).browser;
    viewer = (await invitedAndSignedIn(t, owner.accountId, "viewer@records.example", "viewer")).browser;
  });
  afterAll(() => t.close());

  it("shows when each scanner last uploaded a scan", async () => {
    const practice = await enrolledPracticeFor(t, owner.apiKey, NPI, 2);
    const agent = await practice.enrol("frontdesk-01");
    const before = await viewer.get(`/portal/practices/${NPI}/scanner`);
    expect(before.status).toBe(200);
    expect(before.text).toContain("Last scan");
    expect(cells(rowOf(before.text, "frontdesk-01")!)[4]).toBe("never");

    const upload = await practice.upload(agent, scanDocumentAbout(agent.agentId, [], { hostname: "frontdesk-01" }));
    expect([200, 201]).toContain(upload.status);
    const stored = await t.server.deps.store.db
      .selectFrom("scan_uploads")
      .select("received_at")
      .where("agent_id", "=", agent.agentId)
      .executeTakeFirstOrThrow();
    const after = await viewer.get(`/portal/practices/${NPI}/scanner`);
    expect(cells(rowOf(after.text, "frontdesk-01")!)[4]).toBe(stored.received_at.slice(0, 16).replace("T", " "));
  });

  describe("training roster upload", () => {
    const ROSTER = [
      "member_id,name,role,hired_on,course,completed_on",
      `e1,Avery Front,Front desk,2024-01-10,,${addDays(today(), -20)}`,
      "e2,Blake Nurse,Nurse,2024-03-01,,",
      `"e3","Casey ""CJ"" Billing",Billing,2025-02-01,hipaa_security_awareness,${addDays(today(), -400)}`,
    ].join("\n");

    it("stores a valid CSV file and shows the new training status and roster", async () => {
      const before = await creditsAndLedger();
      const form = await manager.get(`/portal/practices/${NPI}/training/roster`);
      expect(form.status).toBe(200);
      expect(form.text).toContain('enctype="multipart/form-data"');
      const res = await manager.postMultipart(
        `/portal/practices/${NPI}/training/roster`,
        {},
        {
          roster: { name: "roster.csv", content: ROSTER },
        },
      );
      expect(res.status).toBe(201);
      expect(res.text).toContain("Stored 3 people and 2 completions from 3 rows");
      expect(res.text).toContain("33% complete: 1 current, 0 due, 2 overdue");

      const records = await manager.get(`/portal/practices/${NPI}/records`);
      expect(records.text).toContain("Casey &quot;CJ&quot; Billing");
      expect(cells(rowOf(records.text, "Avery Front")!)[4]).toBe("current");
      expect(cells(rowOf(records.text, "Blake Nurse")!)[4]).toBe("overdue");
      // The API's own operation ran: its audit event, over the portal, naming the person, with no key.
      const events = await portalEvents("recordTraining");
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        outcome: "success",
        status: 201,
        actor_key_id: null,
        resource: `practice:${NPI}`,
      });
      expect(events[0]!.actor_operator).toMatch(/^user:usr_/);
      expect(await creditsAndLedger()).toEqual(before); // the API charges no credits for it, nor does the portal
    });

    it("lists every row problem with its line and stores nothing", async () => {
      await manager.get(`/portal/practices/${NPI}/training/roster`);
      const bad = [
        "member_id,name,role,hired_on,completed_on",
        "e9,Drew New,Reception,2024-13-01,",
        "e10,Emery New,Reception,2024-01-01",
        "e11,Finley New,Reception,2024-01-01,",
        "e12 bad id,Gray New,Reception,2024-01-01,",
      ].join("\r\n");
      const res = await manager.postMultipart(
        `/portal/practices/${NPI}/training/roster`,
        {},
        {
          roster: { name: "roster.csv", content: bad },
        },
      );
      expect(res.status).toBe(400);
      expect(res.text).toContain("Nothing was stored: 3 row problems in 4 rows");
      const problems = [...res.text.matchAll(/<tr><td class="num">(\d+)<\/td><td>([^<]*)<\/td>/g)].map((m) => [
        m[1],
        m[2],
      ]);
      expect(problems).toEqual([
        ["3", "—"],
        ["2", "hired_on"],
        ["5", "member_id"],
      ]);
      expect(res.text).toContain("4 fields, the header has 5");
      const stored = await t.server.deps.store.db
        .selectFrom("workforce_members")
        .select("member_id")
        .where("npi", "=", NPI)
        .execute();
      expect(stored.map((m) => m.member_id).sort()).toEqual(["e1", "e2", "e3"]); // Finley (a good row) was not stored
    });

    it("says why when the operation refuses a clean file against the stored records, and stores nothing", async () => {
      await manager.get(`/portal/practices/${NPI}/training/roster`);
      const future = `member_id,name,role,hired_on,completed_on\ne1,Avery Front,Front desk,2024-01-10,${addDays(today(), 5)}\n`;
      const res = await manager.postMultipart(
        `/portal/practices/${NPI}/training/roster`,
        {},
        { roster: { name: "roster.csv", content: future } },
      );
      expect(res.status).toBe(400);
      expect(res.text).toContain("Nothing was stored: completion for e1 is dated in the future.");
      const completions = await t.server.deps.store.db
        .selectFrom("training_completions")
        .select("completed_on")
        .where("npi", "=", NPI)
        .execute();
      expect(completions).toHaveLength(2);
    });

    it("refuses an upload over the size limit with a page that says so", async () => {
      await manager.get(`/portal/practices/${NPI}/training/roster`);
      const big = `member_id,name,role,hired_on\n${"e1,A,B,2024-01-01\n".repeat(130_000)}`;
      const res = await manager.postMultipart(
        `/portal/practices/${NPI}/training/roster`,
        {},
        {
          roster: { name: "roster.csv", content: big },
        },
      );
      expect(res.status).toBe(413);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.text).toContain("The upload is larger than 2 MiB");
    });

    it("refuses an upload without the CSRF token, and a viewer's", async () => {
      await manager.get(`/portal/practices/${NPI}/training/roster`);
      const noToken = await manager.postMultipart(
        `/portal/practices/${NPI}/training/roster`,
        {},
        {
          roster: { name: "roster.csv", content: ROSTER },
        },
        false,
      );
      expect(noToken.status).toBe(403);
      expect(noToken.text).toContain("This form has expired");

      expect((await viewer.get(`/portal/practices/${NPI}/training/roster`)).status).toBe(403);
      const records = await viewer.get(`/portal/practices/${NPI}/records`);
      expect(records.text).not.toContain("Upload the training roster");
      const byViewer = await viewer.postMultipart(
        `/portal/practices/${NPI}/training/roster`,
        {},
        {
          roster: { name: "roster.csv", content: ROSTER },
        },
      );
      expect(byViewer.status).toBe(403);
      // Only the uploads above that reached the operation: the stored one and the one it refused.
      const events = await portalEvents("recordTraining");
      expect(events.map((e) => `${e.outcome}:${e.status}`)).toEqual(["success:201", "failure:400"]);
    });
  });

  describe("incidents", () => {
    const discovered = addDays(today(), -10);
    const breach = {
      title: "Laptop stolen from the car park",
      summary: "Unencrypted laptop of the front desk",
      category: "theft",
      status: "open",
      discovered_on: discovered,
      phi_involved: "yes",
      individuals_affected: "12",
      residents_by_state: "CA=12",
      law_enforcement_delay_days: "0",
      data_type_clinical: "on",
      data_type_contact: "on",
      recipient: "unknown",
      acquired_or_viewed: "unknown",
      mitigation: "none",
    };
    let incidentPath = "";

    it("records an incident and shows its notification clock with the deadlines", async () => {
      const before = await creditsAndLedger();
      expect((await manager.get(`/portal/practices/${NPI}/incidents/new`)).status).toBe(200);
      const created = await manager.post(`/portal/practices/${NPI}/incidents/new`, breach);
      expect(created.status).toBe(303);
      incidentPath = String(created.headers.location).replace(/\?.*$/, "");
      expect(incidentPath).toMatch(new RegExp(`^/portal/practices/${NPI}/incidents/inc_[0-9a-f]{16}$`));

      const page = await manager.get(`${incidentPath}?saved=1`);
      expect(page.status).toBe(200);
      expect(page.text).toContain("Saved.");
      expect(page.text).toContain("<strong>Breach</strong>");
      const individuals = cells(rowOf(page.text, "Individuals</td>")!);
      expect(individuals[1]).toBe(`${addDays(discovered, 60)} (50 days left)`);
      expect(individuals[2]).toBe("pending");
      const hhs = cells(rowOf(page.text, "HHS</td>")!);
      expect(hhs[1]).toContain(`${Number(discovered.slice(0, 4)) + 1}-03-01`); // the annual log: under 500 people
      expect(page.text).toContain('value="Laptop stolen from the car park"');

      const id = incidentPath.split("/").pop();
      const events = await portalEvents("createIncident");
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        outcome: "success",
        status: 201,
        actor_key_id: null,
        resource: `incident:${id}`,
      });
      expect(events[0]!.actor_operator).toMatch(/^user:usr_/);
      expect(await creditsAndLedger()).toEqual(before);

      const records = await viewer.get(`/portal/practices/${NPI}/records`);
      expect(records.text).toContain("Laptop stolen from the car park");
      expect(records.text).toContain(`due ${addDays(discovered, 60)}`);
      expect(records.text).not.toContain("Record an incident");
    });

    it("moves the incident on: notices sent stop the clock", async () => {
      await manager.get(incidentPath);
      const updated = await manager.post(incidentPath, { ...breach, status: "contained", individuals_on: today() });
      expect(updated.status).toBe(303);
      const page = await manager.get(incidentPath);
      const individuals = cells(rowOf(page.text, "Individuals</td>")!);
      expect(individuals[1]).toBe(addDays(discovered, 60));
      expect(individuals[2]).toBe(`sent sent ${today()}`);
      const events = await portalEvents("updateIncident");
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ outcome: "success", status: 200, actor_key_id: null });
    });

    it("keeps the answers and says why when the operation refuses the record", async () => {
      await manager.get(`/portal/practices/${NPI}/incidents/new`);
      const refused = await manager.post(`/portal/practices/${NPI}/incidents/new`, {
        ...breach,
        title: "Phishing <b>reply</b>",
        discovered_on: addDays(today(), 3),
      });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("a discovery date in the future");
      expect(refused.text).toContain('value="Phishing &lt;b>reply&lt;/b>"');
      const rows = await t.server.deps.store.db.selectFrom("incidents").select("id").where("npi", "=", NPI).execute();
      expect(rows).toHaveLength(1);
      // Refused as the API refuses it, and audited as such.
      const events = await portalEvents("createIncident");
      expect(events.map((e) => `${e.outcome}:${e.status}`)).toEqual(["success:201", "failure:400"]);
    });

    it("refuses a viewer and a form without its CSRF token", async () => {
      expect((await viewer.get(`/portal/practices/${NPI}/incidents/new`)).status).toBe(403);
      await viewer.get(`/portal/practices/${NPI}/records`);
      expect((await viewer.post(`/portal/practices/${NPI}/incidents/new`, breach)).status).toBe(403);
      await manager.get(`/portal/practices/${NPI}/incidents/new`);
      expect((await manager.post(`/portal/practices/${NPI}/incidents/new`, breach, false)).status).toBe(403);
      expect(await portalEvents("createIncident")).toHaveLength(2); // the two above: neither refusal reached it
    });
  });

  describe("business associates", () => {
    it("adds one with its BAA dates, shows the coverage, then edits the dates", async () => {
      const before = await creditsAndLedger();
      expect((await manager.get(`/portal/practices/${NPI}/business-associates/new`)).status).toBe(200);
      const added = await manager.post(`/portal/practices/${NPI}/business-associates/new`, {
        name: "Acme Billing, Inc.",
        domain: "acme-billing.example",
        services: "billing, claims",
        phi_access: "on",
        baa_status: "signed",
        signed_on: addDays(today(), -300),
        expires_on: addDays(today(), 20),
      });
      expect(added.status).toBe(303);
      expect(added.headers.location).toBe(`/portal/practices/${NPI}/business-associates/acme-billing-inc?saved=1`);
      const page = await manager.get(String(added.headers.location));
      expect(page.text).toContain('<span class="pill pill-partial">expiring</span>');
      let records = await manager.get(`/portal/practices/${NPI}/records`);
      expect(cells(rowOf(records.text, "Acme Billing")!)[3]).toBe(`expiring until ${addDays(today(), 20)}`);

      await manager.get(`/portal/practices/${NPI}/business-associates/acme-billing-inc`);
      const edited = await manager.post(`/portal/practices/${NPI}/business-associates/acme-billing-inc`, {
        name: "Acme Billing, Inc.",
        services: "billing",
        phi_access: "on",
        baa_status: "signed",
        signed_on: addDays(today(), -10),
        expires_on: addDays(today(), 355),
      });
      expect(edited.status).toBe(303);
      records = await manager.get(`/portal/practices/${NPI}/records`);
      expect(cells(rowOf(records.text, "Acme Billing")!)[3]).toBe(`current until ${addDays(today(), 355)}`);
      expect(records.text).toContain("1 / 1");

      const events = await portalEvents("hipaa.baa");
      expect(events).toHaveLength(2);
      expect(events.every((e) => e.outcome === "success" && e.actor_key_id === null)).toBe(true);
      expect(await creditsAndLedger()).toEqual(before);
    });

    it("refuses a signed BAA without its date (answers kept), a duplicate, a viewer", async () => {
      await manager.get(`/portal/practices/${NPI}/business-associates/new`);
      const refused = await manager.post(`/portal/practices/${NPI}/business-associates/new`, {
        name: "Shred Right",
        phi_access: "on",
        baa_status: "signed",
        signed_on: "",
        expires_on: "",
      });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain("vendor.signed_on: a signed BAA needs its signed_on date");
      expect(refused.text).toContain('value="Shred Right"');

      await manager.get(`/portal/practices/${NPI}/business-associates/new`);
      const duplicate = await manager.post(`/portal/practices/${NPI}/business-associates/new`, {
        name: "ACME billing inc",
        baa_status: "none",
      });
      expect(duplicate.status).toBe(400);
      expect(duplicate.text).toContain("Acme Billing, Inc. is recorded already");

      expect((await viewer.get(`/portal/practices/${NPI}/business-associates/acme-billing-inc`)).status).toBe(403);
      await viewer.get(`/portal/practices/${NPI}/records`);
      const byViewer = await viewer.post(`/portal/practices/${NPI}/business-associates/acme-billing-inc`, {
        name: "Taken over",
        baa_status: "none",
      });
      expect(byViewer.status).toBe(403);
      const list = await t.server.deps.store.db
        .selectFrom("business_associates")
        .select("vendor_id")
        .where("npi", "=", NPI)
        .execute();
      expect(list.map((b) => b.vendor_id)).toEqual(["acme-billing-inc"]);
    });

    it("removes one only with its confirmation box ticked, never for a viewer, and says so on the records page", async () => {
      const remove = `/portal/practices/${NPI}/business-associates/acme-billing-inc/remove`;
      const stored = async () =>
        (
          await t.server.deps.store.db
            .selectFrom("business_associates")
            .select("vendor_id")
            .where("npi", "=", NPI)
            .execute()
        ).map((b) => b.vendor_id);

      await viewer.get(`/portal/practices/${NPI}/records`);
      expect((await viewer.post(remove, { confirm: "yes" })).status).toBe(403);
      const page = await manager.get(`/portal/practices/${NPI}/business-associates/acme-billing-inc`);
      expect(page.text).toContain(`action="${remove}"`);
      const unticked = await manager.post(remove, {});
      expect(unticked.status).toBe(400);
      expect(unticked.text).toContain("Tick &quot;Remove Acme Billing, Inc.&quot; to remove it.");
      expect(await stored()).toEqual(["acme-billing-inc"]);

      const before = (await portalEvents("hipaa.baa")).length;
      const removed = await manager.post(remove, { confirm: "yes" });
      expect(removed.status).toBe(303);
      expect(removed.headers.location).toBe(`/portal/practices/${NPI}/records?removed=business_associate`);
      expect(await stored()).toEqual([]);
      const records = await manager.get(String(removed.headers.location));
      expect(records.text).toContain("The business associate was removed from the records.");
      expect(rowOf(records.text, "Acme Billing")).toBeUndefined();
      const events = await portalEvents("hipaa.baa");
      expect(events).toHaveLength(before + 1);
      expect(events.at(-1)).toMatchObject({ outcome: "success", actor_key_id: null });
      // Gone: its page and a second removal answer 404.
      expect((await manager.get(`/portal/practices/${NPI}/business-associates/acme-billing-inc`)).status).toBe(404);
    });
  });
});

describe("portal records editing on a Free plan", () => {
  let t: TestServer;
  afterAll(() => t?.close());

  it("refuses incidents and the roster as the API does (Group A needs Professional); business associates are open to all plans", async () => {
    t = await startTestServer();
    const free = await accountWithKey(t.server.deps, { plan: "free" });
    await gradedPractice(t.server.deps, free.accountId, NPI);
    const { browser } = await invitedAndSignedIn(t, free.accountId, "owner@free.example", "owner");
    const api = await t.request("/v1/incidents", {
      method: "POST",
      headers: { Authorization: `Bearer ${free.apiKey}` },
      body: { npi: NPI, title: "x", category: "other", discovered_on: today(), phi_involved: false },
    });
    expect(api.status).toBe(403);

    await browser.get(`/portal/practices/${NPI}/incidents/new`);
    const incident = await browser.post(`/portal/practices/${NPI}/incidents/new`, {
      title: "Phishing email clicked",
      category: "phishing",
      status: "open",
      discovered_on: today(),
      phi_involved: "no",
    });
    expect(incident.status).toBe(403);
    expect(incident.text).toContain("This needs a Professional or Enterprise plan");

    await browser.get(`/portal/practices/${NPI}/training/roster`);
    const roster = await browser.postMultipart(
      `/portal/practices/${NPI}/training/roster`,
      {},
      { roster: { name: "roster.csv", content: "member_id,name,role,hired_on\ne1,Ann,MA,2024-01-01\n" } },
    );
    expect(roster.status).toBe(403);
    const db = t.server.deps.store.db;
    expect(await db.selectFrom("incidents").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("workforce_members").select("member_id").execute()).toEqual([]);

    await browser.get(`/portal/practices/${NPI}/business-associates/new`);
    const ba = await browser.post(`/portal/practices/${NPI}/business-associates/new`, {
      name: "Cloud Fax",
      phi_access: "on",
      baa_status: "pending",
    });
    expect(ba.status).toBe(303);
  });
});

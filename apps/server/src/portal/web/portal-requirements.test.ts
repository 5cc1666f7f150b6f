import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personaScanDocument } from "../../sample-practices/internal-half.js";
import { addPractice } from "../../services/practices.js";
import { enrolledPracticeFor } from "../../test-support/enrolled-practice.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import type { PortalClient } from "../../test-support/portal-client.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * Requirements 6 and 13 in the portal, over real HTTPS, signed in through the pages: the dashboard states the 13
 * requirements as hipaa.compliance_state does, and a manager records a restore test on the Records page through the
 * API's own operation (recordRestoreTest over the portal bridge), which moves requirement 6 and the host's findings.
 */

const NPI = "1679576722";
const today = () => new Date().toISOString().slice(0, 10);
/** The state word of a requirement on the dashboard (its summary line). */
const dashboardState = (html: string, title: string) =>
  html.match(new RegExp(`<summary><span class="pill [^"]+">([a-z ]+)</span> ${title}`))?.[1] ?? null;

// PostgreSQL only when reachable, as every other suite: skipped with a printed reason, or failing under
// HCS_TEST_PG=required (README).
const ENGINES = (await shouldRunPostgres()) ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

describe.each(ENGINES)("requirements 6 and 13 in the portal (%s)", (engine) => {
  let t: TestServer;
  let owner: Awaited<ReturnType<typeof accountWithKey>>;
  let manager: PortalClient;
  let viewer: PortalClient;

  beforeAll(async () => {
    t = await startTestServer({ engine });
    owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 1000 });
    await addPractice(t.server.deps, {
      npi: NPI,
      name: "Birch Street Clinic",
      domain: "birch-street.test",
      website: "https://www.birch-street.test",
      accountId: owner.accountId,
    });
    const enrolment = await enrolledPracticeFor(t, owner.apiKey, NPI, 1);
    const agent = await enrolment.enrol("ehr-server");
    const uploaded = await enrolment.upload(agent, personaScanDocument("linux-ehr-server", agent.agentId, new Date()));
    expect(uploaded.status, uploaded.text).toBe(201);
    manager = (await invitedAndSignedIn(t, owner.accountId, "manager@birch.example", "manager")).browser;
    viewer = (await invitedAndSignedIn(t, owner.accountId, "viewer@birch.example", "viewer")).browser;
  });
  afterAll(() => t.close());

  it("the dashboard states the requirements and their evidence; restore tests move requirement 6", async () => {
    const before = await viewer.get(`/portal/practices/${NPI}`);
    expect(before.status).toBe(200);
    expect(before.text).toContain("HIPAA requirements");
    // The EHR server's audit controls are in place; its evidence awaits the first signed checkpoint.
    expect(dashboardState(before.text, "Audit trail with SHA-256 hashing and blockchain-anchored proof")).toBe(
      "partial",
    );
    expect(before.text).toContain("HCS audit log of the evidence");
    expect(before.text).not.toContain(`/portal/practices/${NPI}/restore-tests/new`);

    await manager.get(`/portal/practices/${NPI}/restore-tests/new`);
    const failed = await manager.post(`/portal/practices/${NPI}/restore-tests/new`, {
      tested_on: today(),
      system: "ehr-server",
      data_restored: "EHR database to the spare server",
      hours: "2.5",
      outcome: "failed",
    });
    expect(failed.status, failed.text).toBe(303);
    const notMet = await manager.get(`/portal/practices/${NPI}`);
    expect(dashboardState(notMet.text, "Backup and 72-hour restore readiness")).toBe("not met");
    expect(notMet.text).toContain("backups.restore_test_failed");

    await manager.get(`/portal/practices/${NPI}/restore-tests/new`);
    const worked = await manager.post(`/portal/practices/${NPI}/restore-tests/new`, {
      tested_on: today(),
      system: "ehr-server",
      data_restored: "EHR database to the spare server, after fixing the key escrow",
      hours: "3",
      outcome: "succeeded",
    });
    expect(worked.status).toBe(303);
    expect(worked.headers.location).toBe(`/portal/practices/${NPI}/records?recorded=restore_test`);
    const met = await viewer.get(`/portal/practices/${NPI}`);
    expect(dashboardState(met.text, "Backup and 72-hour restore readiness")).toBe("met");
    const records = await viewer.get(`/portal/practices/${NPI}/records`);
    expect(records.text).toContain("after fixing the key escrow");
    expect(records.text).toContain("2.5 h");

    const events = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select(["outcome", "actor_key_id", "actor_operator", "resource"])
      .where("transport", "=", "portal")
      .where("action", "=", "recordRestoreTest")
      .execute();
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ outcome: "success", actor_key_id: null });
    expect(events[0]!.resource).toMatch(/^restore_test:rst_[0-9a-f]{16}$/);
  });

  it("refuses a viewer, a form without its CSRF field, and a bad time, storing nothing", async () => {
    const count = async () => (await t.server.deps.store.db.selectFrom("restore_tests").select("id").execute()).length;
    const stored = await count();
    await viewer.get(`/portal/practices/${NPI}/records`);
    const byViewer = await viewer.post(`/portal/practices/${NPI}/restore-tests/new`, {
      tested_on: today(),
      system: "ehr-server",
      data_restored: "EHR database",
      hours: "1",
    });
    expect(byViewer.status).toBe(403);
    await manager.get(`/portal/practices/${NPI}/restore-tests/new`);
    const noCsrf = await manager.post(
      `/portal/practices/${NPI}/restore-tests/new`,
      { tested_on: today(), system: "ehr-server", data_restored: "EHR database", hours: "1" },
      false,
    );
    expect(noCsrf.status).toBe(403);
    const badHours = await manager.post(`/portal/practices/${NPI}/restore-tests/new`, {
      tested_on: today(),
      system: "ehr-server",
      data_restored: "EHR database <b>kept</b>",
      hours: "-3",
    });
    expect(badHours.status).toBe(400);
    expect(badHours.text).toContain("a number of hours above 0");
    // The person's answers are kept, escaped.
    expect(badHours.text).toContain('value="EHR database &lt;b>kept&lt;/b>"');
    const future = await manager.post(`/portal/practices/${NPI}/restore-tests/new`, {
      tested_on: "2999-01-01",
      system: "ehr-server",
      data_restored: "EHR database",
      hours: "1",
    });
    expect(future.status).toBe(400);
    expect(future.text).toContain("Not saved");
    expect(await count()).toBe(stored);
  });
});

import { ComplianceStateSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RestoreTestListSchema, RestoreTestViewSchema } from "../../readiness/restore-tests-schema.js";
import { personaScanDocument } from "../../sample-practices/internal-half.js";
import { addPractice } from "../../services/practices.js";
import { enrolledPracticeFor } from "../../test-support/enrolled-practice.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

// Eleven months after the EHR server persona's scan: Veeam's own restore record (2025-11-20) is over 12 months old.
const NOW = new Date("2026-12-20T10:00:00.000Z");
const NPI = "1093817462";
let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
const bearer = () => ({ Authorization: `Bearer ${owner.apiKey}` });

beforeAll(async () => {
  t = await startTestServer({ now: () => NOW });
  owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 1_000 });
  await addPractice(t.server.deps, {
    npi: NPI,
    name: "Cedar Family Medicine",
    domain: "cedar-family.test",
    website: "https://www.cedar-family.test",
    accountId: owner.accountId,
  });
  const enrolment = await enrolledPracticeFor(t, owner.apiKey, NPI, 1);
  const agent = await enrolment.enrol("ehr-server");
  const upload = await enrolment.upload(
    agent,
    personaScanDocument("linux-ehr-server", agent.agentId, new Date("2026-12-19T22:30:00.000Z")),
  );
  expect(upload.status, upload.text).toBe(201);
});
afterAll(async () => {
  await t.close();
});

const openRestoreFindings = () =>
  t.server.deps.store.db
    .selectFrom("findings")
    .select(["finding_id", "severity", "host", "phase"])
    .where("npi", "=", NPI)
    .where("check_id", "like", "backups.restore%")
    .where("resolved_at", "is", null)
    .execute();
const requirement6 = async () => {
  const res = await t.request(`/v1/a2a/compliance/${NPI}`, { headers: { "X-API-Key": owner.apiKey } });
  return ComplianceStateSchema.parse(res.json).requirements.find((r) => r.id === "backup_restore")!;
};
const grades = async () =>
  Number(
    (
      await t.server.deps.store.db
        .selectFrom("grades")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("npi", "=", NPI)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("/v1/restore-tests (Group A)", () => {
  it("an ePHI host whose only restore test is over 12 months old gets the untested finding at upload", async () => {
    expect(await openRestoreFindings()).toEqual([
      { finding_id: "backups.restore_not_tested", severity: "medium", host: "ehr-server", phase: "backups" },
    ]);
    const r6 = await requirement6();
    expect(r6.state).toBe("partial");
    expect(r6.evidence[1]!.detail).toMatch(/ehr-server: no restore tested in the last 12 months/);
    expect(r6.evidence[1]!.findings).toEqual(["backups.restore_not_tested"]);
  });

  it("a restore test recorded for the host resolves it and regrades; one that took over 72 hours raises another", async () => {
    const before = await grades();
    const res = await t.request("/v1/restore-tests", {
      method: "POST",
      headers: bearer(),
      body: {
        npi: NPI,
        tested_on: "2026-12-01",
        system: "EHR-SERVER",
        data_restored: "EHR database to the spare server",
        time_to_restore_minutes: 190,
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(RestoreTestViewSchema.parse(res.json)).toMatchObject({
      npi: NPI,
      system: "EHR-SERVER",
      outcome: "succeeded",
      current: true,
      within_72_hours: true,
    });
    expect(await openRestoreFindings()).toEqual([]);
    expect(await grades()).toBe(before + 1);
    expect((await requirement6()).state).toBe("met");

    const slow = await t.request("/v1/restore-tests", {
      method: "POST",
      headers: bearer(),
      body: {
        npi: NPI,
        tested_on: "2026-12-15",
        system: "ehr-server.cedar.lan",
        data_restored: "full machine image from the off-site copy",
        time_to_restore_minutes: 80 * 60,
      },
    });
    expect(slow.status, slow.text).toBe(201);
    expect(slow.json.within_72_hours).toBe(false);
    expect(await openRestoreFindings()).toEqual([
      { finding_id: "backups.restore_over_72_hours", severity: "high", host: "ehr-server", phase: "backups" },
    ]);
    const r6 = await requirement6();
    expect(r6.state).toBe("not_met");
    expect(r6.evidence[1]!.detail).toMatch(/took 80 hours, over 72/);

    const list = await t.request(`/v1/restore-tests?npi=${NPI}`, { headers: bearer() });
    expect(list.status).toBe(200);
    expect(RestoreTestListSchema.parse(list.json).restore_tests.map((r) => r.tested_on)).toEqual([
      "2026-12-15",
      "2026-12-01",
    ]);
  });

  it("refuses another account's practice, free plans, the future and hostile input, storing nothing", async () => {
    const count = async () =>
      (await t.server.deps.store.db.selectFrom("restore_tests").select("id").where("npi", "=", NPI).execute()).length;
    const stored = await count();
    const valid = {
      npi: NPI,
      tested_on: "2026-12-01",
      system: "ehr-server",
      data_restored: "EHR database",
      time_to_restore_minutes: 60,
    };
    const other = await accountWithKey(t.server.deps, { plan: "enterprise" });
    await gradedPractice(t.server.deps, other.accountId, "1245319599");
    const foreign = await t.request("/v1/restore-tests", {
      method: "POST",
      headers: { Authorization: `Bearer ${other.apiKey}` },
      body: valid,
    });
    expect([foreign.status, foreign.json.error.code]).toEqual([403, "forbidden"]);
    const free = await accountWithKey(t.server.deps, { plan: "free" });
    const refused = await t.request("/v1/restore-tests", {
      method: "POST",
      headers: { Authorization: `Bearer ${free.apiKey}` },
      body: valid,
    });
    expect(refused.json.error.code).toBe("plan_required");
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...valid, tested_on: "2026-12-21" }, "invalid_body", "tested_on"],
      [{ ...valid, tested_on: "2026-02-30" }, "invalid_body", "tested_on"],
      [{ ...valid, time_to_restore_minutes: 0 }, "invalid_body", "time_to_restore_minutes"],
      [{ ...valid, time_to_restore_minutes: 2.5 }, "invalid_body", "time_to_restore_minutes"],
      [{ ...valid, system: "" }, "invalid_body", "system"],
      [{ ...valid, system: "ehr\u0000server" }, "invalid_body", "system"],
      [{ ...valid, data_restored: "x".repeat(501) }, "invalid_body", "data_restored"],
      [{ ...valid, outcome: "partly" }, "invalid_body", "outcome"],
      [{ ...valid, patient: "Jane Doe" }, "invalid_body", "patient"],
      [{ ...valid, npi: "1234567890" }, "invalid_npi", "npi"],
    ];
    for (const [body, code, field] of cases) {
      const res = await t.request("/v1/restore-tests", { method: "POST", headers: bearer(), body });
      expect([res.status, res.json.error.code], JSON.stringify(body)).toEqual([400, code]);
      expect(JSON.stringify(res.json.error), field).toContain(field);
    }
    expect(await count()).toBe(stored);
  });
});

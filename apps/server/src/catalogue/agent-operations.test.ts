import {
  ComplianceDeltaSchema,
  ComplianceStateSchema,
  ControlsResultSchema,
  type FindingParsed,
  FindingsPageSchema,
} from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccount } from "../services/accounts.js";
import { recordAssessment } from "../services/grades.js";
import { scanDocument } from "../test-support/agent-client.js";
import { enrolledPractice } from "../test-support/enrolled-practice.js";
import { accountWithKey, gradedPractice } from "../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../test-support/test-server.js";

let clock = new Date("2026-11-22T10:00:00.000Z");
let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
let stranger: Awaited<ReturnType<typeof accountWithKey>>;
const NPI = "1234567893";
const OTHER = "1679576722";

const finding = (
  n: number,
  severity: FindingParsed["severity"],
  category = "email_security",
  npi = NPI,
): FindingParsed => ({
  id: `email.test_${n}:p${npi}.example`,
  check_id: `email.test_${n}`,
  source: "external",
  category: category as FindingParsed["category"],
  severity,
  title: `Test finding ${n}`,
  detail: "A finding made for this test.",
  evidence: {},
  remediation: "Fix it.",
  controls: ["164.312(d)"],
});

const as = (key: string) => ({ headers: { "X-API-Key": key } });
const balance = async (accountId: string) => (await getAccount(t.server.deps, accountId)).credits;

beforeAll(async () => {
  t = await startTestServer({ now: () => clock });
  owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 10_000 });
  stranger = await accountWithKey(t.server.deps, { tier: "bulk", credits: 10_000 });
  const findings = [
    ...Array.from({ length: 7 }, (_, i) => finding(i, "low")),
    finding(10, "critical"),
    finding(11, "high"),
    finding(12, "medium", "privacy_compliance"),
  ];
  await gradedPractice(t.server.deps, owner.accountId, NPI, findings);
  await gradedPractice(t.server.deps, stranger.accountId, OTHER);
});
afterAll(async () => {
  await t.close();
});

describe("hipaa.findings — GET /v1/a2a/findings/{npi}", () => {
  it("pages the owner's findings most severe first, with a cursor, 25 credits a page", async () => {
    const before = await balance(owner.accountId);
    const first = await t.request(`/v1/a2a/findings/${NPI}?limit=4`, as(owner.apiKey));
    expect(first.status, first.text).toBe(200);
    const page1 = FindingsPageSchema.parse(first.json);
    expect(page1.findings.map((f) => f.severity)).toEqual(["critical", "high", "medium", "low"]);
    expect(page1.findings.every((f) => f.status === "open" && f.controls.length > 0 && f.remediation)).toBe(true);
    expect(first.headers["x-credits-charged"]).toBe("25");
    const seen = [...page1.findings.map((f) => f.id)];
    let cursor = page1.next_cursor;
    while (cursor) {
      const next = FindingsPageSchema.parse(
        (await t.request(`/v1/a2a/findings/${NPI}?limit=4&cursor=${cursor}`, as(owner.apiKey))).json,
      );
      seen.push(...next.findings.map((f) => f.id));
      cursor = next.next_cursor;
    }
    expect(seen).toHaveLength(10);
    expect(new Set(seen).size).toBe(10);
    expect(await balance(owner.accountId)).toBe(before - 3 * 25);
  });

  it("filters by severity (several), category and status", async () => {
    const bad = FindingsPageSchema.parse(
      (await t.request(`/v1/a2a/findings/${NPI}?severity=critical,high`, as(owner.apiKey))).json,
    );
    expect(bad.findings.map((f) => f.severity)).toEqual(["critical", "high"]);
    const privacy = FindingsPageSchema.parse(
      (await t.request(`/v1/a2a/findings/${NPI}?category=privacy_compliance`, as(owner.apiKey))).json,
    );
    expect(privacy.findings.map((f) => f.id)).toEqual([`email.test_12:p${NPI}.example`]);
    const resolved = FindingsPageSchema.parse(
      (await t.request(`/v1/a2a/findings/${NPI}?status=resolved`, as(owner.apiKey))).json,
    );
    expect(resolved.findings).toEqual([]);
  });

  it("belongs to the owner (403 forbidden, uncharged) and refuses bad input with documented codes", async () => {
    const before = await balance(stranger.accountId);
    const other = await t.request(`/v1/a2a/findings/${NPI}`, as(stranger.apiKey));
    expect([other.status, other.json.error.code]).toEqual([403, "forbidden"]);
    expect(await balance(stranger.accountId)).toBe(before);
    for (const [query, code] of [
      ["?limit=500", "invalid_query"],
      ["?severity=urgent", "invalid_query"],
      ["?cursor=bm90LWEtY3Vyc29y", "invalid_query"],
      ["?color=red", "invalid_query"],
    ] as const) {
      const res = await t.request(`/v1/a2a/findings/${NPI}${query}`, as(owner.apiKey));
      expect([res.status, res.json.error.code], query).toEqual([400, code]);
    }
    const bad = await t.request("/v1/a2a/findings/1234567890", as(owner.apiKey));
    expect(bad.json.error.code).toBe("invalid_npi");
  });
});

describe("hipaa.batch — POST /v1/a2a/batch", () => {
  it("answers one result per distinct NPI and charges 25 per NPI that has a grade", async () => {
    const before = await balance(stranger.accountId);
    const res = await t.request("/v1/a2a/batch", {
      ...as(stranger.apiKey),
      body: { npis: [NPI, OTHER, "1234567890", "1306849450", NPI] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.graded).toBe(2);
    expect(
      res.json.results.map((r: { npi: string; ok: boolean; error?: { code: string } }) => [
        r.npi,
        r.ok ? "ok" : r.error!.code,
      ]),
    ).toEqual([
      [NPI, "ok"],
      [OTHER, "ok"],
      ["1234567890", "invalid_npi"],
      ["1306849450", "npi_not_found"],
    ]);
    expect(res.json.results[0].grade.npi).toBe(NPI);
    expect(res.headers["x-credits-charged"]).toBe("50");
    expect(await balance(stranger.accountId)).toBe(before - 50);
  });

  it("is refused whole with 402 when the balance does not cover every graded NPI", async () => {
    const poor = await accountWithKey(t.server.deps, { credits: 30 });
    const res = await t.request("/v1/a2a/batch", { ...as(poor.apiKey), body: { npis: [NPI, OTHER] } });
    expect([res.status, res.json.error.code, res.json.error.details]).toEqual([
      402,
      "insufficient_credits",
      { required: 50, balance: 30, contact_email: null },
    ]);
    expect(await balance(poor.accountId)).toBe(30);
    const tooMany = await t.request("/v1/a2a/batch", {
      ...as(poor.apiKey),
      body: { npis: Array.from({ length: 101 }, () => NPI) },
    });
    expect([tooMany.status, tooMany.json.error.code]).toEqual([400, "invalid_body"]);
  });
});

describe("hipaa.get_controls — GET /v1/a2a/controls", () => {
  it("lists controls with R/A and how HCS verifies each; free", async () => {
    const before = await balance(stranger.accountId);
    const res = await t.request("/v1/a2a/controls?standard=164.312(a)(1)", as(stranger.apiKey));
    expect(res.status, res.text).toBe(200);
    const { controls } = ControlsResultSchema.parse(res.json);
    expect(controls.map((c) => c.id)).toContain("164.312(a)(2)(iv)");
    expect(controls.every((c) => c.id === "164.312(a)(1)" || c.standard === "164.312(a)(1)")).toBe(true);
    const encryption = controls.find((c) => c.id === "164.312(a)(2)(iv)")!;
    expect(encryption.requirement).toBe("addressable");
    expect(encryption.verified_by).toContainEqual(
      expect.objectContaining({ source: "internal", by: "disk_encryption" }),
    );
    expect(encryption.requirements).toContain("encryption_at_rest");
    const transport = ControlsResultSchema.parse(
      (await t.request("/v1/a2a/controls?ids=164.312(e)(1)", as(stranger.apiKey))).json,
    ).controls[0]!;
    expect(transport.verified_by.some((v) => v.source === "external")).toBe(true);
    const byRequirement = ControlsResultSchema.parse(
      (await t.request("/v1/a2a/controls?requirement=staff_training", as(stranger.apiKey))).json,
    ).controls;
    expect(byRequirement.map((c) => c.id).sort()).toEqual(["164.308(a)(5)", "164.308(a)(5)(ii)(A)"]);
    expect(await balance(stranger.accountId)).toBe(before);
    const unknown = await t.request("/v1/a2a/controls?requirement=nope", as(stranger.apiKey));
    expect([unknown.status, unknown.json.error.code]).toEqual([400, "invalid_query"]);
  });
});

describe("hipaa.compliance_state and hipaa.compliance_delta", () => {
  it("judges the 13 requirements from what the scans recorded, for the owner", async () => {
    const practice = await enrolledPractice(t, "1306849450", 1);
    const agent = await practice.enrol("frontdesk-01");
    const upload = await practice.upload(agent, scanDocument(agent.agentId, { unencrypted: true }));
    expect(upload.status, upload.text).toBe(201);
    const res = await t.request("/v1/a2a/compliance/1306849450", as(practice.ownerKey));
    expect(res.status, res.text).toBe(200);
    expect(res.headers["x-credits-charged"]).toBe("25");
    const state = ComplianceStateSchema.parse(res.json);
    const byId = Object.fromEntries(state.requirements.map((r) => [r.id, r]));
    expect(byId.encryption_at_rest!.state).toBe("not_met");
    expect(byId.encryption_at_rest!.evidence[0]!.findings).toHaveLength(1);
    // Backups recent, restore readiness unknown: no system is known to hold ePHI and no restore test is recorded.
    expect(byId.backup_restore!.state).toBe("partial");
    expect(byId.backup_restore!.evidence.map((e) => [e.ref, e.state])).toEqual([
      ["backups", "met"],
      ["restore_tests", "unknown"],
    ]);
    expect(byId.external_vulnerability_scanning!.state).toBe("met");
    expect(byId.multi_factor_authentication!.state).toBe("unknown");
    expect(byId.staff_training!.state).toBe("unknown");
    expect(byId.encryption_at_rest!.last_verified).not.toBeNull();
    expect(state.summary.met + state.summary.partial + state.summary.not_met + state.summary.unknown).toBe(13);
    const other = await t.request("/v1/a2a/compliance/1306849450", as(stranger.apiKey));
    expect(other.json.error.code).toBe("forbidden");
  });

  it("compares two assessments: score, grade, categories, new and resolved findings", async () => {
    const npi = "1245319599";
    await gradedPractice(t.server.deps, owner.accountId, npi, [
      finding(1, "high", "email_security", npi),
      finding(2, "low", "email_security", npi),
    ]);
    clock = new Date("2026-11-22T11:00:00.000Z");
    await recordAssessment(t.server.deps, {
      npi,
      source: "external",
      subject: `p${npi}.example`,
      categories: ["email_security", "application_security", "privacy_compliance"],
      findings: [finding(2, "low", "email_security", npi), finding(3, "medium", "email_security", npi)],
      at: clock,
      reference: null,
    });
    const res = await t.request(`/v1/a2a/compliance/${npi}/delta`, as(owner.apiKey));
    expect(res.status, res.text).toBe(200);
    const delta = ComplianceDeltaSchema.parse(res.json);
    expect(delta.score_change).toBeGreaterThan(0);
    expect(delta.new_findings.map((f) => f.id)).toEqual([`email.test_3:p${npi}.example`]);
    expect(delta.resolved_findings.map((f) => f.id)).toEqual([`email.test_1:p${npi}.example`]);
    expect(delta.grade_change).toBe(
      delta.from.grade === delta.to.grade ? null : `${delta.from.grade}→${delta.to.grade}`,
    );
    const email = delta.categories.email_security!;
    expect(email.change).toBe(email.to! - email.from!);
    expect(email.change).toBeGreaterThan(0);
    // The same comparison by assessment ids, and by a time.
    const byIds = ComplianceDeltaSchema.parse(
      (
        await t.request(
          `/v1/a2a/compliance/${npi}/delta?from=${delta.from.assessment_id}&to=${delta.to.assessment_id}`,
          as(owner.apiKey),
        )
      ).json,
    );
    expect(byIds).toEqual(delta);
    const since = ComplianceDeltaSchema.parse(
      (await t.request(`/v1/a2a/compliance/${npi}/delta?since=2026-11-22T10:30:00.000Z`, as(owner.apiKey))).json,
    );
    expect(since.from.assessment_id).toBe(delta.from.assessment_id);
    const missing = await t.request(`/v1/a2a/compliance/${npi}/delta?from=asm_999999`, as(owner.apiKey));
    expect([missing.status, missing.json.error.code]).toEqual([404, "not_found"]);
  });
});

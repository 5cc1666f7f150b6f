import { EvidenceReportSchema, verifyAuditProof, withNpiCheckDigit } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpoint } from "../../audit/checkpoints.js";
import { EVIDENCE_OPERATIONS } from "../../audit/evidence-operations.js";
import { nodeEd25519Verify } from "../../audit/log-key.js";
import { sequenceAuditLog } from "../../audit/sequencer.js";
import { auditJobCompletion } from "../../jobs/worker-audit.js";
import { recordAssessment } from "../../services/grades.js";
import { scanDocument } from "../../test-support/agent-client.js";
import { type EnrolledPractice, enrolledPractice } from "../../test-support/enrolled-practice.js";
import { accountWithKey, completedJobRow } from "../../test-support/fixtures.js";
import { independentlyVerify } from "../../test-support/independent-audit-verifier.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";
import { uploadResultsOperation } from "../scanners/network.js";

const NPI = "1234567893";
let t: TestServer;
let practice: EnrolledPractice;
let scanId = "";

beforeAll(async () => {
  t = await startTestServer();
  practice = await enrolledPractice(t, NPI, 1);
  const agent = await practice.enrol("frontdesk-01");
  const doc = scanDocument(agent.agentId);
  scanId = doc.scan_id;
  const res = await practice.upload(agent, doc);
  expect(res.status, res.text).toBe(201);
});
afterAll(async () => {
  await t.close();
});

const evidence = (query = "", key = practice.ownerKey) =>
  t.request(`/v1/a2a/evidence/${NPI}${query}`, { headers: { "X-API-Key": key } });
const recordsOf = (report: ReturnType<typeof EvidenceReportSchema.parse>) =>
  report.requirements.flatMap((r) => r.evidence.flatMap((e) => e.records));

describe("hipaa.evidence", () => {
  it("names the upload operation the catalogue declares", () => {
    expect(EVIDENCE_OPERATIONS).toContain(uploadResultsOperation.id);
  });

  it("lists the scanner upload behind each phase's evidence, pending until a checkpoint covers its event", async () => {
    const res = await evidence();
    expect(res.status, res.text).toBe(200);
    const report = EvidenceReportSchema.parse(res.json);
    expect(report.requirements).toHaveLength(13);
    const records = recordsOf(report);
    expect(records.length).toBeGreaterThan(0);
    expect(new Set(records.map((r) => r.ref))).toEqual(new Set([`scan:${scanId}`]));
    expect(records[0]).toMatchObject({ kind: "scanner_upload", subject: "frontdesk-01", audit: { state: "pending" } });
    const charges = await t.server.deps.store.db
      .selectFrom("credit_ledger")
      .select(["delta"])
      .where("operation", "=", "evidence")
      .execute();
    expect(charges).toEqual([{ delta: -25 }]);
  });

  it("proves each record's audit event once a checkpoint covers it; the bundle verifies offline", async () => {
    await sequenceAuditLog(t.server.deps.store);
    await createCheckpoint(t.server.deps.store, t.server.deps.auditLogKey!, new Date());
    const report = EvidenceReportSchema.parse((await evidence()).json);
    const [record] = recordsOf(report);
    expect(record!.audit.state).toBe("proved");
    const bundle = record!.audit.proof!;
    expect(bundle.event.record).toMatchObject({ operation: "uploadScanResults", resource: `scan:${scanId}` });
    const key = t.server.deps.auditLogKey!.verifierKey;
    expect(verifyAuditProof(bundle, { verify: nodeEd25519Verify, trustedKey: key }).ok).toBe(true);
    expect(independentlyVerify(bundle, key)).toBeNull();
  });

  it("gives the owner the proof of every event it lists, and another account 404 for each, as for an unknown id", async () => {
    // An external scan of the practice as the worker completes one, beside the scanner's upload: its assessment
    // cites the job, and the worker's event logs it.
    const deps = t.server.deps;
    const { account_id: owner } = await deps.store.db
      .selectFrom("practices")
      .select("account_id")
      .where("npi", "=", NPI)
      .executeTakeFirstOrThrow();
    const jobId = await completedJobRow(deps, owner, NPI);
    await recordAssessment(deps, {
      npi: NPI,
      source: "external",
      subject: `p${NPI}.example`,
      categories: ["email_security"],
      findings: [],
      at: deps.now(),
      reference: `job:${jobId}`,
    });
    const job = await deps.store.db.selectFrom("jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
    await deps.store.db.transaction().execute((trx) => auditJobCompletion(trx, job, deps.now().toISOString()));
    await sequenceAuditLog(deps.store);
    await createCheckpoint(deps.store, deps.auditLogKey!, new Date());

    const listed = recordsOf(EvidenceReportSchema.parse((await evidence()).json));
    const ids = [...new Set(listed.map((r) => r.audit.event_id))];
    expect(new Set(listed.map((r) => r.kind))).toEqual(new Set(["scanner_upload", "external_scan"]));
    expect(listed.every((r) => r.audit.state === "proved")).toBe(true);
    const stranger = await accountWithKey(deps, { plan: "professional", tier: "bulk", credits: 100 });
    const proof = (id: number | string, key: string) =>
      t.request(`/v1/a2a/audit/events/${id}/proof`, { headers: { "X-API-Key": key } });
    const unknown = await proof(999_999_999, stranger.apiKey);
    expect(unknown.status).toBe(404);
    for (const id of ids) {
      const mine = await proof(id!, practice.ownerKey);
      expect(mine.status, mine.text).toBe(200);
      expect(mine.json.event.id).toBe(id);
      const theirs = await proof(id!, stranger.apiKey);
      expect(theirs.status).toBe(404);
      expect({ ...theirs.json.error, request_id: null }).toEqual({ ...unknown.json.error, request_id: null });
    }
  });

  it("filters by requirement and by time", async () => {
    const one = EvidenceReportSchema.parse((await evidence("?requirement=5")).json);
    expect(one.requirements.map((r) => r.number)).toEqual([5]);
    const later = EvidenceReportSchema.parse((await evidence("?since=2099-01-01T00:00:00Z")).json);
    expect(recordsOf(later)).toEqual([]);
    const bad = await evidence("?requirement=14");
    expect([bad.status, bad.json.error.code]).toEqual([400, "invalid_query"]);
  });

  it("is for the practice's owner only", async () => {
    const stranger = await accountWithKey(t.server.deps, { credits: 100 });
    const res = await evidence("", stranger.apiKey);
    expect(res.status).toBe(403);
    const none = await t.request(`/v1/a2a/evidence/${withNpiCheckDigit("198261537")}`, {
      headers: { "X-API-Key": practice.ownerKey },
    });
    expect(none.status).toBe(404);
  });
});

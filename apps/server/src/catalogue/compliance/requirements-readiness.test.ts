import { type ComplianceState, ComplianceStateSchema, EvidenceReportSchema, withNpiCheckDigit } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dateOf } from "../../administrative/calendar-date.js";
import { createCheckpoint } from "../../audit/checkpoints.js";
import { sequenceAuditLog } from "../../audit/sequencer.js";
import { personaScan, personaScanDocument } from "../../sample-practices/internal-half.js";
import { PRACTICE_SPECS } from "../../sample-practices/start.js";
import type { PracticeSpec } from "../../sample-practices/types.js";
import { addPractice } from "../../services/practices.js";
import { enrolledPracticeFor } from "../../test-support/enrolled-practice.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import { capturedExternalScan, completeWithCapturedScan } from "../../test-support/fully-evidenced-practice.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/**
 * Requirements 6 (backup and 72-hour restore readiness) and 13 (audit trail) end to end, for the sample practices'
 * internal halves (sample-practices/practices/*.ts): each practice's scanner host uploads the scanner's own persona
 * scan (signed, over HTTPS), its manager records its restore tests over Group A, a full scan completes, and
 * hipaa.compliance_state, hipaa.evidence and the report's HTML say met, partial, not met or unknown as the practice
 * is built to — the demo's practices, as `npm run demo` shows them.
 */

// The personas scanned on 2026-01-15 (their clock); the server reads them the next morning.
const NOW = new Date("2026-01-16T09:00:00.000Z");
const SCANNED = new Date("2026-01-15T12:00:00.000Z");
const runPg = await shouldRunPostgres();
const HALVES = PRACTICE_SPECS.filter((p): p is PracticeSpec & { internal: NonNullable<PracticeSpec["internal"]> } =>
  Boolean(p.internal),
);

function suite(engine: "sqlite" | "postgres") {
  describe(`requirements 6 and 13 from an upload to the report (${engine})`, () => {
    let t: TestServer;
    let owner: Awaited<ReturnType<typeof accountWithKey>>;
    const jobs = new Map<string, string>();
    const npiOf = (spec: PracticeSpec) => withNpiCheckDigit(spec.npiPrefix);
    const lakeside = () => HALVES.find((h) => h.name.startsWith("Lakeside"))!;
    const state = async (npi: string) => {
      const res = await t.request(`/v1/a2a/compliance/${npi}`, { headers: { "X-API-Key": owner.apiKey } });
      expect(res.status, res.text).toBe(200);
      const s = ComplianceStateSchema.parse(res.json);
      return (id: string) => s.requirements.find((r) => r.id === id)! as ComplianceState["requirements"][number];
    };
    const settleLog = async () => {
      for (;;) if ((await sequenceAuditLog(t.server.deps.store)).sequenced === 0) break;
      await createCheckpoint(t.server.deps.store, t.server.deps.auditLogKey!, NOW);
    };

    beforeAll(async () => {
      t = await startTestServer({ engine, now: () => NOW });
      owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 100_000 });
      for (const spec of HALVES) {
        const npi = npiOf(spec);
        await addPractice(t.server.deps, {
          npi,
          name: spec.name,
          domain: spec.domain,
          website: `https://${spec.websiteHost}`,
          accountId: owner.accountId,
        });
        const enrolment = await enrolledPracticeFor(t, owner.apiKey, npi, 1);
        const agent = await enrolment.enrol(personaScan(spec.internal.persona).host.hostname);
        const uploaded = await enrolment.upload(
          agent,
          personaScanDocument(spec.internal.persona, agent.agentId, SCANNED),
        );
        expect(uploaded.status, uploaded.text).toBe(201);
        for (const test of spec.internal.restoreTests) {
          const { days_ago, ...fields } = test;
          const tested_on = dateOf(new Date(NOW.getTime() - days_ago * 86_400_000));
          const res = await t.request("/v1/restore-tests", {
            method: "POST",
            headers: { Authorization: `Bearer ${owner.apiKey}` },
            body: { npi, tested_on, ...fields },
          });
          expect(res.status, res.text).toBe(201);
        }
        const dispatched = await t.request("/v1/a2a/scans/dispatch", {
          method: "POST",
          headers: { "X-API-Key": owner.apiKey },
          body: { npi },
        });
        expect(dispatched.status, dispatched.text).toBe(202);
        await completeWithCapturedScan(t, dispatched.json.job_id, capturedExternalScan(spec.domain));
        jobs.set(npi, dispatched.json.job_id);
      }
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    it("before a signed checkpoint covers the evidence, the audit trail awaits it", async () => {
      const r13 = (await state(npiOf(lakeside())))("audit_trail");
      expect(r13.evidence.map((e) => [e.ref, e.state])).toEqual([
        ["access_control", "met"],
        ["evidence_records", "partial"],
      ]);
      expect(r13.state).toBe("partial");
      expect(r13.evidence[1]!.detail).toMatch(/await the next signed checkpoint/);
    });

    it.each(HALVES.map((h) => [h.name, h] as const))(
      "%s: compliance_state and the report agree with the practice's build",
      async (_name, spec) => {
        await settleLog();
        const npi = npiOf(spec);
        const req = await state(npi);
        const expected = spec.internal.expected;
        expect([req("backup_restore").state, req("audit_trail").state]).toEqual([
          expected.backup_restore,
          expected.audit_trail,
        ]);
        const html = await t.request(`/v1/a2a/reports/${jobs.get(npi)}`, {
          headers: { "X-API-Key": owner.apiKey, Accept: "text/html" },
        });
        expect(html.status).toBe(200);
        expect(reportState(html.text, 6)).toBe(expected.backup_restore);
        expect(reportState(html.text, 13)).toBe(expected.audit_trail);
      },
    );

    it("met: the EHR server's Veeam backup and the recorded restore, its audit controls, its evidence proved", async () => {
      const npi = npiOf(lakeside());
      const req = await state(npi);
      const r6 = req("backup_restore");
      expect(r6.evidence.map((e) => [e.ref, e.state])).toEqual([
        ["backups", "met"],
        ["restore_tests", "met"],
      ]);
      expect(r6.evidence[0]!.detail).toMatch(
        /^backups recent on 1 of 1 ePHI-holding host: ehr-server: backed up by veeam/,
      );
      expect(r6.evidence[1]!.detail).toMatch(/ehr-server: restored on \d{4}-\d{2}-\d{2} in 3.2 hours \(record rst_/);
      const evidence = await t.request(`/v1/a2a/evidence/${npi}?requirement=13`, {
        headers: { "X-API-Key": owner.apiKey },
      });
      expect(evidence.status, evidence.text).toBe(200);
      const log = EvidenceReportSchema.parse(evidence.json).requirements[0]!.evidence[1]!;
      expect(log.kind).toBe("audit_log");
      expect(log.records.map((r) => [r.kind, r.audit.state])).toEqual([
        ["external_scan", "proved"],
        ["scanner_upload", "proved"],
      ]);
    });

    it("with anchoring in use, the audit trail waits for a final anchor, then is met", async () => {
      const npi = npiOf(lakeside());
      const db = t.server.deps.store.db;
      const latest = await db
        .selectFrom("audit_checkpoints")
        .select("size")
        .orderBy("size", "desc")
        .limit(1)
        .executeTakeFirstOrThrow();
      // What the anchoring loop writes for a checkpoint when HCS_ANCHOR_* is configured (audit/anchor/).
      await db
        .insertInto("audit_anchors")
        .values({
          size: latest.size,
          chain_id: 8453,
          contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
          day: 20260116,
          state: "sent",
          tx_hash: `0x${"ab".repeat(32)}`,
          block_number: null,
          block_hash: null,
          attempts: 0,
          last_error: null,
          next_attempt_at: NOW.toISOString(),
          lease_owner: null,
          lease_expires_at: null,
          created_at: NOW.toISOString(),
          sent_at: NOW.toISOString(),
          finalized_at: null,
        })
        .execute();
      const waiting = (await state(npi))("audit_trail");
      expect([waiting.state, waiting.evidence[1]!.state]).toEqual(["partial", "partial"]);
      expect(waiting.evidence[1]!.detail).toMatch(/await a final anchor on chain/);
      await db
        .updateTable("audit_anchors")
        .set({
          state: "finalized",
          block_number: 1234,
          block_hash: `0x${"cd".repeat(32)}`,
          finalized_at: NOW.toISOString(),
        })
        .where("size", "=", latest.size)
        .execute();
      const anchored = (await state(npi))("audit_trail");
      expect(anchored.state).toBe("met");
      expect(anchored.evidence[1]!.detail).toMatch(/anchored up to \d+ on chain 8453/);
    });

    it("not met: no backup of the ePHI front desk (capped at C), its recorded restore failed, logs in memory only", async () => {
      const spec = HALVES.find((h) => h.name.startsWith("Riverside"))!;
      const npi = npiOf(spec);
      const req = await state(npi);
      expect(req("backup_restore").evidence[0]!.detail).toMatch(
        /frontdesk-01: no backup at all \(backups.no_backup_agent\)/,
      );
      expect(req("backup_restore").evidence[1]!).toMatchObject({
        state: "not_met",
        findings: ["backups.restore_test_failed"],
      });
      expect(req("audit_trail").evidence[0]!.detail).toMatch(/system logs are kept in memory only/);
      const grade = await t.request(`/v1/a2a/grade/${npi}`, { headers: { "X-API-Key": owner.apiKey } });
      expect(grade.json.caps_applied.map((c: { id: string }) => c.id)).toContain("ephi_device_without_backup");
    });

    it("partial and unknown say what was not read", async () => {
      const summit = await state(npiOf(HALVES.find((h) => h.name.startsWith("Summit"))!));
      expect(summit("backup_restore").evidence[1]!.detail).toMatch(/no system is known to hold ePHI/);
      expect(summit("audit_trail").evidence[0]!.detail).toMatch(/the clock is not synchronised/);
      const harbor = await state(npiOf(HALVES.find((h) => h.name.startsWith("Harbor"))!));
      expect(harbor("backup_restore").evidence[0]).toMatchObject({ state: "unknown" });
      expect(harbor("backup_restore").evidence[0]!.detail).toMatch(/the last backup could not be read/);
      expect(harbor("audit_trail").evidence[0]!.detail).toMatch(/no result from the last 30 days/);
    });
  });
}

/** The state pill of requirement `n` in the report's HTML (its row of "The 13 HIPAA requirements"). */
function reportState(html: string, n: number): string | null {
  const row = html.match(new RegExp(`<tr>\\s*<td class="num">${n}</td>[\\s\\S]*?</tr>`))?.[0];
  return row?.match(/class="pill state-(met|partial|not_met|unknown)"/)?.[1] ?? null;
}

suite("sqlite");
describe.skipIf(!runPg)("postgres", () => suite("postgres"));

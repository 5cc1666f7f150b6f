import { createHash } from "node:crypto";
import { type ScanResultDocument, ScanUploadAcceptanceSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FACTS_KEPT_PER_AGENT } from "../../services/scan-upload-record.js";
import { uploadHeaders } from "../../test-support/agent-client.js";
import { type EnrolledPractice, enrolledPractice } from "../../test-support/enrolled-practice.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { networkHosts, scanDocumentAbout } from "../../test-support/scan-documents.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

const NPI = "1234567893";

/** What is stored of an upload, on each store engine (the same queries must behave the same on both). */
function storageSuite(engine: "sqlite" | "postgres") {
  describe(`what is stored of a scan upload (${engine})`, () => {
    let t: TestServer;
    let practice: EnrolledPractice;

    beforeAll(async () => {
      t = await startTestServer({ engine, now: () => new Date("2026-11-23T00:00:00.000Z") });
      practice = await enrolledPractice(t, NPI, 5);
    });
    afterAll(async () => {
      await t?.close();
    });

    const enrol = (hostname: string) => practice.enrol(hostname);

    it("keeps a summary and the digest, not the raw document; facts only for the agent's newest scans; replays and conflicts still answered", async () => {
      const agent = await enrol("store-01");
      const send = (body: string, scanId: string, who = agent) =>
        t.request("/v1/a2a/network/results", {
          method: "POST",
          headers: uploadHeaders(who.agentId, scanId, body, who.privateKey),
          body,
        });
      const scans: { doc: ScanResultDocument; body: string; acceptance: unknown }[] = [];
      for (let day = 1; day <= FACTS_KEPT_PER_AGENT + 1; day++) {
        const doc = scanDocumentAbout(agent.agentId, [{ host: networkHosts(1)[0]!, count: 3 }], {
          hostname: "store-01",
          completedAt: `2026-11-2${day}T01:00:05.000Z`,
          facts: { open_ports: [{ host: "10.20.0.1", port: 445, service: "smb" }], day },
        });
        const body = JSON.stringify(doc);
        const res = await send(body, doc.scan_id);
        expect(res.status, res.text).toBe(201);
        scans.push({ doc, body, acceptance: ScanUploadAcceptanceSchema.parse(res.json) });
      }

      const rows = await t.server.deps.store.db
        .selectFrom("scan_uploads")
        .selectAll()
        .where("agent_id", "=", agent.agentId)
        .orderBy("completed_at")
        .execute();
      expect(rows).toHaveLength(scans.length);
      const latest = rows.at(-1)!;
      const doc = scans.at(-1)!.doc;
      expect(Object.keys(latest)).not.toContain("document");
      // No finding text in the row: the findings live in the findings table only.
      expect(JSON.stringify(latest)).not.toContain(doc.phases[0]!.findings[0]!.detail);
      expect(latest.body_sha256).toBe(createHash("sha256").update(scans.at(-1)!.body).digest("hex"));
      expect(JSON.parse(latest.summary)).toEqual({
        scanner_version: doc.scanner_version,
        host: doc.host,
        scope: doc.scope,
        started_at: doc.started_at,
        completed_at: doc.completed_at,
        phases: [
          { id: "ports", status: "ok", duration_ms: 4100, findings: 3 },
          { id: "disk_encryption", status: "ok", duration_ms: 40, findings: 0 },
          { id: "mfa", status: "unsupported", duration_ms: 0, reason: "not on this platform", findings: 0 },
        ],
      });
      expect(JSON.parse(latest.facts!)).toEqual({
        ports: doc.phases[0]!.facts,
        disk_encryption: { volumes: 1 },
        mfa: {},
      });
      // Facts are kept for the newest scans only; every scan keeps its summary, digest and acceptance.
      expect(rows.map((r) => r.facts !== null)).toEqual([false, ...Array(FACTS_KEPT_PER_AGENT).fill(true)]);
      expect(rows.every((r) => JSON.parse(r.summary).phases.length === 3)).toBe(true);

      // The oldest scan, whose facts are gone, is still replayed with its stored acceptance …
      const oldest = scans[0]!;
      const replay = await send(oldest.body, oldest.doc.scan_id);
      expect(replay.status).toBe(200);
      expect(replay.json).toEqual({ ...(oldest.acceptance as object), duplicate: true });
      // … and a different body, or another agent, under its scan id is a conflict.
      const changed = JSON.stringify({ ...oldest.doc, completed_at: "2026-11-21T01:00:06.000Z" });
      const conflict = await send(changed, oldest.doc.scan_id);
      expect([conflict.status, conflict.json.error.code]).toEqual([409, "idempotency_conflict"]);
      const other = await enrol("store-02");
      const foreign = await send(oldest.body, oldest.doc.scan_id, other);
      expect([foreign.status, foreign.json.error.code]).toEqual([409, "idempotency_conflict"]);
      expect(
        await t.server.deps.store.db
          .selectFrom("scan_uploads")
          .select("scan_id")
          .where("scan_id", "=", oldest.doc.scan_id)
          .execute(),
      ).toHaveLength(1);
    });
  });
}

storageSuite("sqlite");
const runPg = await shouldRunPostgres();
describe.skipIf(!runPg)("postgres", () => storageSuite("postgres"));

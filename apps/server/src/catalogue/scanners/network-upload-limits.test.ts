import { SCAN_UPLOAD_LIMITS, type ScanResultDocument, ScanUploadAcceptanceSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EnrolledPractice, enrolledPractice, type TestAgent } from "../../test-support/enrolled-practice.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { maximumScanDocument, networkHosts, scanDocumentAbout } from "../../test-support/scan-documents.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

const NPI = "1234567893";
const { findings_per_host, hosts_per_upload, findings_per_upload, upload_bytes } = SCAN_UPLOAD_LIMITS;

/** The upload limits over real HTTPS, on each store engine. */
function limitsSuite(engine: "sqlite" | "postgres") {
  describe(`scan upload limits (${engine})`, () => {
    let t: TestServer;
    let practice: EnrolledPractice;

    beforeAll(async () => {
      t = await startTestServer({ engine, now: () => new Date("2026-11-22T02:00:00.000Z") });
      practice = await enrolledPractice(t, NPI, 20);
    });
    afterAll(async () => {
      await t?.close();
    });

    const enrol = (hostname: string) => practice.enrol(hostname);
    const upload = (agent: TestAgent, doc: ScanResultDocument | string, scanId?: string) =>
      practice.upload(agent, doc, scanId);

    const storedScan = (scanId: string) =>
      t.server.deps.store.db.selectFrom("scan_uploads").selectAll().where("scan_id", "=", scanId).executeTakeFirst();

    it("refuses an upload over each limit with 413, the limit and the count in details, rate-limit headers, nothing stored", async () => {
      const agent = await enrol("limits-01");
      // Six hosts, each under the per-host limit, together one over the total.
      const perHostOfSix = Math.ceil((findings_per_upload + 1) / 6);
      const cases: { doc: ScanResultDocument; details: Record<string, unknown> }[] = [
        {
          doc: scanDocumentAbout(agent.agentId, [{ host: "10.20.0.9", count: findings_per_host + 1 }], {
            hostname: "limits-01",
          }),
          details: {
            limit: "findings_per_host",
            max: findings_per_host,
            actual: findings_per_host + 1,
            host: "10.20.0.9",
          },
        },
        {
          // Findings without a host are about the scanning machine.
          doc: scanDocumentAbout(agent.agentId, [{ host: null, count: findings_per_host + 1 }], {
            hostname: "limits-01",
          }),
          details: {
            limit: "findings_per_host",
            max: findings_per_host,
            actual: findings_per_host + 1,
            host: "limits-01",
          },
        },
        {
          doc: scanDocumentAbout(
            agent.agentId,
            networkHosts(hosts_per_upload + 1).map((host) => ({ host, count: 1 })),
            { hostname: "limits-01" },
          ),
          details: { limit: "hosts_per_upload", max: hosts_per_upload, actual: hosts_per_upload + 1 },
        },
        {
          doc: scanDocumentAbout(
            agent.agentId,
            networkHosts(6).map((host) => ({ host, count: perHostOfSix })),
            { hostname: "limits-01" },
          ),
          details: { limit: "findings_per_upload", max: findings_per_upload, actual: perHostOfSix * 6 },
        },
      ];
      for (const { doc, details } of cases) {
        const res = await upload(agent, doc);
        expect(res.status, res.text).toBe(413);
        expect(res.json.error).toMatchObject({ code: "payload_too_large", details });
        expect(res.json.error.message).toContain(String(details.max));
        for (const h of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"])
          expect(res.headers[h]).toBeDefined();
        expect(await storedScan(doc.scan_id)).toBeUndefined();
      }

      // A body over the byte limit: the excess is read and dropped, so the 413 reaches the client intact.
      const big = scanDocumentAbout(agent.agentId, [{ host: null, count: 10 }], {
        hostname: "limits-01",
        facts: { padding: "x".repeat(upload_bytes) },
      });
      const bytes = Buffer.byteLength(JSON.stringify(big));
      const res = await upload(agent, big);
      expect(res.status).toBe(413);
      expect(res.json.error).toMatchObject({
        code: "payload_too_large",
        details: { limit: "upload_bytes", max: upload_bytes, actual: bytes },
      });
      expect(res.headers["x-ratelimit-limit"]).toBeDefined();
      expect(await storedScan(big.scan_id)).toBeUndefined();
    });

    it("accepts an upload exactly at every limit and stores all of its findings", async () => {
      const agent = await enrol("limits-02");
      const doc = maximumScanDocument(agent.agentId, "limits-02");
      const body = JSON.stringify(doc);
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(upload_bytes);
      expect(Buffer.byteLength(body)).toBeGreaterThan(upload_bytes - 4096);
      const res = await upload(agent, body, doc.scan_id);
      expect(res.status, res.text).toBe(201);
      expect(ScanUploadAcceptanceSchema.parse(res.json).duplicate).toBe(false);
      const stored = await t.server.deps.store.db
        .selectFrom("findings")
        .select(({ fn }) => [fn.countAll<number>().as("n"), fn.count<number>("host").distinct().as("hosts")])
        .where("npi", "=", NPI)
        .where("subject", "=", "limits-02")
        .where("resolved_at", "is", null)
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(findings_per_upload);
      expect(Number(stored.hosts)).toBe(hosts_per_upload);
    });
  });
}

limitsSuite("sqlite");
const runPg = await shouldRunPostgres();
describe.skipIf(!runPg)("postgres", () => limitsSuite("postgres"));

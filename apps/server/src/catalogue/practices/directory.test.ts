import { BatchResultSchema, DirectoryEntrySchema, NotYetAssessedSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccount } from "../../services/accounts.js";
import { importDirectoryFile } from "../../services/directory/import-file.js";
import { addPractice } from "../../services/practices.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import { registryAnswerFiles } from "../../test-support/nppes-files.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

const FILES = registryAnswerFiles();

function suite(engine: "sqlite" | "postgres") {
  describe.skipIf(!FILES)(`the directory and the not-yet-assessed grade on ${engine}`, () => {
    let t: TestServer;
    let key: string;
    let accountId: string;
    beforeAll(async () => {
      t = await startTestServer({ engine });
      for (const f of FILES!) await importDirectoryFile(t.server.deps, "nppes", f);
      ({ apiKey: key, accountId } = await accountWithKey(t.server.deps, { credits: 500 }));
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });
    const get = (path: string) => t.request(path, { headers: { "X-API-Key": key } });
    const balance = async () => (await getAccount(t.server.deps, accountId)).credits;

    it("GET /v1/a2a/directory/{npi}: an organization and an individual, with descriptions; free", async () => {
      const org = await get("/v1/a2a/directory/1568946812");
      expect(org.status, org.text).toBe(200);
      expect(DirectoryEntrySchema.parse(org.json)).toMatchObject({
        entity_type: "NPI-2",
        name: "CSP ANESTHESIA LLC",
        status: "active",
        taxonomy: { code: "207L00000X", description: "Anesthesiology", primary: true },
        authorized_official: { first_name: "TIMOTHY", last_name: "BARTON" },
        practice_locations: [expect.objectContaining({ city: "ATLANTA" })],
      });
      const person = await get("/v1/a2a/directory/1720377294");
      expect(person.json).toMatchObject({ entity_type: "NPI-1", name: "ELISE HIZA, M.D.", authorized_official: null });
      expect(org.headers["x-credits-charged"] ?? "0").toBe("0");
      expect((await get("/v1/a2a/directory/1245319599")).json.error.code).toBe("npi_not_found");
      expect(await balance()).toBe(500);
    });

    it("a grade lookup of a directory NPI without an assessment: not_yet_assessed, named, not charged", async () => {
      const res = await get("/v1/a2a/grade/1396949913");
      expect(res.status, res.text).toBe(200);
      expect(NotYetAssessedSchema.parse(res.json)).toEqual({
        npi: "1396949913",
        practice_name: "AMIR STEINBERG, M.D.",
        assessment: "not_yet_assessed",
        directory: {
          entity_type: "NPI-1",
          status: "active",
          taxonomy: { code: "207RX0202X", description: "Internal Medicine Medical Oncology", primary: true },
          city: "NEW YORK",
          state: "NY",
        },
      });
      expect(res.headers["x-credits-charged"] ?? "0").toBe("0");
      // A registered practice not scanned yet answers with its own name; an NPI nobody knows is still unknown.
      await addPractice(t.server.deps, { npi: "1568946812", name: "CSP Anesthesia", domain: "csp.example", accountId });
      expect((await get("/v1/a2a/grade/1568946812")).json).toMatchObject({
        practice_name: "CSP Anesthesia",
        assessment: "not_yet_assessed",
      });
      expect((await get("/v1/a2a/grade/1245319599")).json.error.code).toBe("npi_not_found");
      expect(await balance()).toBe(500);
    });

    it("the same answers over JSON-RPC and MCP", async () => {
      const rpc = await t.request("/api/a2a", {
        method: "POST",
        headers: { "X-API-Key": key },
        body: { jsonrpc: "2.0", id: 1, method: "hipaa.grade", params: { npi: "1396949913" } },
      });
      expect(rpc.json.result).toMatchObject({ assessment: "not_yet_assessed" });
      const mcp = await t.request("/mcp", {
        method: "POST",
        headers: {
          "X-API-Key": key,
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2025-06-18",
        },
        body: {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "hipaa_directory", arguments: { npi: "1568946812" } },
        },
      });
      expect(mcp.json.result.structuredContent).toMatchObject({ name: "CSP ANESTHESIA LLC" });
      expect(await balance()).toBe(500);
    });

    it("a batch answers each NPI as the single lookup does: not_yet_assessed, free; an unknown NPI's error", async () => {
      const res = await t.request("/v1/a2a/batch", {
        method: "POST",
        headers: { "X-API-Key": key },
        body: { npis: ["1396949913", "1568946812", "1245319599"], operation: "grade" },
      });
      expect(res.status, res.text).toBe(200);
      const single = async (npi: string) => (await get(`/v1/a2a/grade/${npi}`)).json;
      expect(BatchResultSchema.parse(res.json)).toEqual({
        operation: "grade",
        graded: 0,
        results: [
          { npi: "1396949913", ok: true, grade: await single("1396949913") },
          { npi: "1568946812", ok: true, grade: await single("1568946812") },
          { npi: "1245319599", ok: false, error: expect.objectContaining({ code: "npi_not_found" }) },
        ],
      });
      expect(res.json.results[1].grade).toMatchObject({ practice_name: "CSP Anesthesia" });
      expect(res.headers["x-credits-charged"] ?? "0").toBe("0");
      expect(await balance()).toBe(500);
    });
  });
}

suite("sqlite");
describe.skipIf(!(await shouldRunPostgres()))("postgres", () => suite("postgres"));

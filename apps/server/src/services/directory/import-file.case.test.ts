import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NPPES_COLUMNS } from "../../directory/nppes-layout.js";
import { createSecretBox } from "../../secrets/master-key.js";
import {
  deactivatedRow,
  endpointCsv,
  nppesCsv,
  nppesRowOf,
  nuccCsv,
  registryAnswerFiles,
  registryRecords,
} from "../../test-support/nppes-files.js";
import { writeGeneratedNppesFile } from "../../test-support/nppes-generator.js";
import { forEachEngine, type OpenedStore } from "../../test-support/store-engines.js";
import type { ServiceDeps } from "../deps.js";
import { directoryImportStates, importDirectoryFile } from "./import-file.js";

const FILES = registryAnswerFiles();

forEachEngine((engine, open) => {
  describe.skipIf(!FILES)(`directory imports (${engine})`, () => {
    let opened: OpenedStore;
    let deps: ServiceDeps;
    const dir = mkdtempSync(join(tmpdir(), "hcs-nppes-"));
    const records = registryRecords(FILES ?? []);
    beforeAll(async () => {
      opened = await open();
      await opened.store.migrate();
      deps = {
        store: opened.store,
        now: () => new Date("2025-10-05T12:00:00Z"),
        secrets: createSecretBox(randomBytes(32)),
      };
    });
    afterAll(async () => {
      await opened.store.close();
      await opened.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const provider = (npi: string) =>
      deps.store.db.selectFrom("nppes_providers").selectAll().where("npi", "=", npi).executeTakeFirst();

    it("imports a data file in the documented layout, skipping (and naming) a bad record; again changes nothing", async () => {
      const rows = records.map(nppesRowOf);
      const broken = [...rows[3]!];
      broken[NPPES_COLUMNS.indexOf("NPI")] = "1234567890";
      const path = file("npidata_pfile_1.csv", nppesCsv([...rows.slice(0, 3), broken, ...rows.slice(3)]));
      const report = await importDirectoryFile(deps, "nppes", path, { batchRecords: 7 });
      expect(report).toMatchObject({ kind: "nppes", records: 40, skipped: 1, changed: true, resumed_at_byte: null });
      expect(report.refusals).toEqual([{ row: 5, field: "NPI", reason: '"1234567890" is not a valid NPI' }]);
      expect(await provider("1568946812")).toMatchObject({
        entity_type: 2,
        name: "CSP ANESTHESIA LLC",
        city: "VILLA RICA",
        state: "GA",
        taxonomy_code: "207L00000X",
        official_first_name: "TIMOTHY",
        official_last_name: "BARTON",
        deactivated_on: null,
        source: "nppes_csv",
      });
      const again = await importDirectoryFile(deps, "nppes", path);
      expect(again).toMatchObject({ changed: false, records: 40, import_id: report.import_id });
      const count = await deps.store.db
        .selectFrom("nppes_providers")
        .select((e) => e.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(40);
    });

    it("a later file's bare deactivation keeps what was known of the NPI and marks it deactivated", async () => {
      await importDirectoryFile(
        deps,
        "nppes",
        file("weekly.csv", nppesCsv([deactivatedRow("1568946812", "2025-09-01")])),
      );
      expect(await provider("1568946812")).toMatchObject({ name: "CSP ANESTHESIA LLC", deactivated_on: "2025-09-01" });
    });

    it("imports registry API answers (JSON, through the same command): descriptions and secondary locations", async () => {
      for (const f of FILES!) await importDirectoryFile(deps, "nppes", f);
      const p = await provider("1568946812");
      // The API's record (active) replaces the file's.
      expect(p).toMatchObject({ source: "registry_api", deactivated_on: null });
      expect(JSON.parse(p!.practice_locations)).toEqual([
        expect.objectContaining({ line1: "5505 ROSWELL RD STE 350B", city: "ATLANTA" }),
      ]);
      const desc = await deps.store.db
        .selectFrom("nppes_taxonomies")
        .select("description")
        .where("code", "=", "207L00000X")
        .executeTakeFirst();
      expect(desc?.description).toBe("Anesthesiology");
    });

    it("imports the endpoint file with the domains its endpoints name, and the NUCC code set", async () => {
      const report = await importDirectoryFile(
        deps,
        "nppes_endpoints",
        file(
          "endpoint_pfile.csv",
          endpointCsv([
            { npi: "1568946812", type: "DIRECT", endpoint: "billing@direct.csp-anesthesia.test" },
            { npi: "1568946812", type: "FHIR", endpoint: "https://fhir.csp-anesthesia.test/r4" },
            { npi: "1568946812", type: "WEB", endpoint: "https://portal.hisp.test/", affiliated: true },
            { npi: "1234567890", type: "WEB", endpoint: "https://x.test/" },
          ]),
        ),
      );
      expect(report).toMatchObject({ records: 3, skipped: 1 });
      const rows = await deps.store.db
        .selectFrom("nppes_endpoints")
        .select(["endpoint_type", "domain", "affiliated"])
        .where("npi", "=", "1568946812")
        .orderBy("endpoint_type")
        .execute();
      expect(rows).toEqual([
        { endpoint_type: "DIRECT", domain: "direct.csp-anesthesia.test", affiliated: 0 },
        { endpoint_type: "FHIR", domain: "fhir.csp-anesthesia.test", affiliated: 0 },
        { endpoint_type: "WEB", domain: "portal.hisp.test", affiliated: 1 },
      ]);
      const nucc = await importDirectoryFile(deps, "nucc_taxonomy", file("nucc_taxonomy_251.csv", nuccCsv(records)));
      expect(nucc.records).toBeGreaterThan(30);
    });

    it("resumes an import stopped mid-file after its last committed record, without duplicates", async () => {
      const path = join(dir, "generated.csv");
      await writeGeneratedNppesFile(path, 5_000);
      let batches = 0;
      await expect(
        importDirectoryFile(deps, "nppes", path, {
          batchRecords: 500,
          afterBatch: () => {
            if (++batches === 3) throw new Error("crash");
          },
        }),
      ).rejects.toThrow("crash");
      const stopped = await deps.store.db
        .selectFrom("directory_imports")
        .selectAll()
        .where("source", "=", path)
        .executeTakeFirstOrThrow();
      expect(stopped.status).toBe("running");
      expect(stopped.records).toBeGreaterThanOrEqual(1_400);
      expect(stopped.records).toBeLessThan(5_000);
      const states = await directoryImportStates(deps);
      expect(states.find((s) => s.feed === "nppes")?.progress).toMatch(/resumes on the next import/);
      const resumed = await importDirectoryFile(deps, "nppes", path, { batchRecords: 500 });
      expect(resumed).toMatchObject({ records: 5_000, skipped: 0, resumed_at_byte: stopped.committed_bytes });
      const generated = await deps.store.db
        .selectFrom("nppes_providers")
        .select([(e) => e.fn.countAll<number>().as("n")])
        .where("npi", ">=", "1000000000")
        .where("npi", "<", "1000050000")
        .executeTakeFirstOrThrow();
      expect(Number(generated.n)).toBe(5_000);
      const deactivated = await deps.store.db
        .selectFrom("nppes_providers")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("npi", ">=", "1000000000")
        .where("npi", "<", "1000050000")
        .where("deactivated_on", "is not", null)
        .executeTakeFirstOrThrow();
      expect(Number(deactivated.n)).toBe(100);
    });
  });
});

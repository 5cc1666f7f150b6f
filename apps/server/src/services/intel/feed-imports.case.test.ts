import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFeedError } from "../../intel/feed-error.js";
import { KEV_MATCHING_RULES } from "../../intel/host-findings.js";
import { createSecretBox } from "../../secrets/master-key.js";
import { sharedDataFile } from "../../test-support/shared-data.js";
import { forEachEngine, type OpenedStore } from "../../test-support/store-engines.js";
import type { ServiceDeps } from "../deps.js";
import { computeReputation } from "../reputation.js";
import { breachCheck } from "./breach-lookup.js";
import { importEol, importHhsBreaches, importKev } from "./feed-imports.js";
import type { FeedText } from "./feed-source.js";
import { feedStatus } from "./feed-status.js";
import { sectorSummary } from "./sector-summary.js";

const CURRENT = sharedDataFile("hhs-ocr-breaches/breach_report_2024-12-09.csv", "HHS OCR breach export (2024)");
const ARCHIVE = sharedDataFile("hhs-ocr-breaches/breach_report_archive_2009-2016.csv", "HHS OCR breach archive");
const KEV = sharedDataFile("cisa-kev/known_exploited_vulnerabilities.json", "CISA KEV catalogue");

const feedText = (text: string, source = "test"): FeedText => ({
  source,
  text,
  sha256: createHash("sha256").update(text).digest("hex"),
});
const fileText = (path: string) => feedText(readFileSync(path, "utf8"), path);

forEachEngine((engine, open) => {
  describe.skipIf(!CURRENT || !ARCHIVE || !KEV)(`feed imports (${engine})`, () => {
    let opened: OpenedStore;
    let deps: ServiceDeps;
    const now = new Date("2025-10-05T12:00:00Z");
    beforeAll(async () => {
      opened = await open();
      await opened.store.migrate();
      deps = { store: opened.store, now: () => now, secrets: createSecretBox(randomBytes(32)) };
    });
    afterAll(async () => {
      await opened.store.close();
      await opened.cleanup();
    });
    const count = async (table: "hhs_breaches" | "kev_entries" | "feed_imports" | "hhs_breach_names") =>
      Number(
        (
          await deps.store.db
            .selectFrom(table)
            .select((e) => e.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it("imports both real breach files, merging them; a second import of a file changes nothing", async () => {
      const current = await importHhsBreaches(deps, fileText(CURRENT!));
      expect(current).toMatchObject({ feed: "hhs_breaches", version: "2024-12-03", records: 853, changed: true });
      const archive = await importHhsBreaches(deps, fileText(ARCHIVE!));
      expect(archive).toMatchObject({ version: "2016-10-14", records: 1698, changed: true });
      expect(archive.detail.duplicates_counted_once).toHaveLength(2);
      expect(await count("hhs_breaches")).toBe(853 + 1698);
      const again = await importHhsBreaches(deps, fileText(CURRENT!));
      expect(again.changed).toBe(false);
      expect(await count("hhs_breaches")).toBe(853 + 1698);
      // d/b/a names are indexed under each name
      const dba = await deps.store.db
        .selectFrom("hhs_breach_names")
        .select("name_key")
        .where("state", "=", "VA")
        .where("name_key", "=", "atlantic orthopaedic specialists")
        .execute();
      expect(dba).toHaveLength(1);
      const reputation = await computeReputation(deps, { uptimeSeconds: () => 1 });
      expect(reputation.breaches_tracked).toBe(853 + 1698);
    });

    it("answers breach checks and the sector summary from the imported reports", async () => {
      const check = await breachCheck(deps, { name: "Colonial Behavioral Health", state: "VA" }, null);
      expect(check.matches.map((m) => [m.confidence, m.record.entity_name, m.record.submitted_on])).toEqual([
        [1, "Colonial Behavioral Health", "2024-11-27"],
      ]);
      expect((await breachCheck(deps, { name: "Jefferson Dental Clinic", state: "IN" }, null)).matches).toEqual([]);
      const sector = await sectorSummary(deps.store.db, "Healthcare Provider", "VA");
      expect(sector).toMatchObject({ state: "VA", from: "2022-12-03", to: "2024-12-03" });
      expect(sector.breaches).toBeGreaterThan(0);
      expect(sector.breach_types[0]?.name).toBe("Hacking/IT Incident");
    });

    it("a refused file leaves the stored data exactly as it was", async () => {
      const before = [await count("hhs_breaches"), await count("feed_imports")];
      const text = readFileSync(CURRENT!, "utf8");
      // A good file whose last row was cut mid-way: 852 good rows, then a refusal.
      const truncated = feedText(text.slice(0, text.length - 30));
      await expect(importHhsBreaches(deps, truncated)).rejects.toSatisfy(isFeedError);
      const badRow = feedText(text.replace("2024-11-22", "2024-11-32"));
      await expect(importHhsBreaches(deps, badRow)).rejects.toThrow(/row \d+, column "Breach Submission Date"/);
      expect([await count("hhs_breaches"), await count("feed_imports")]).toEqual(before);
    });

    it("imports the KEV catalogue with its version, replaces it whole, and shows its age", async () => {
      const kev = await importKev(deps, fileText(KEV!));
      expect(kev).toMatchObject({ feed: "kev", version: "2025.08.25", records: 1404, changed: true });
      // What the matching rules derive from the real catalogue (docs/intelligence.md records these figures).
      expect(kev.detail).toMatchObject({
        matching_rules: KEV_MATCHING_RULES,
        entries_with_product_key: 1150,
        entries_with_ranges: 18,
        entries_with_upper_bound: 17,
      });
      expect(await count("kev_entries")).toBe(1404);
      const csa = await deps.store.db
        .selectFrom("kev_entries")
        .select("ranges")
        .where("cve_id", "=", "CVE-2022-24816")
        .executeTakeFirstOrThrow();
      expect(JSON.parse(csa.ranges)).toEqual([
        expect.objectContaining({ source: "patched JAI-EXT is version 1.1.22" }),
      ]);
      // The same file again is a no-op …
      expect((await importKev(deps, fileText(KEV!))).changed).toBe(false);
      // … unless it was imported under older matching rules: then it is derived again by the current ones.
      await deps.store.db
        .updateTable("kev_entries")
        .set({ ranges: "[]" })
        .where("cve_id", "=", "CVE-2022-24816")
        .execute();
      await deps.store.db
        .updateTable("feed_imports")
        .set({ detail: JSON.stringify({ date_released: "2025-08-25T12:00:00.000Z" }) })
        .where("feed", "=", "kev")
        .execute();
      const rederived = await importKev(deps, fileText(KEV!));
      expect(rederived).toMatchObject({ changed: true, detail: { matching_rules: KEV_MATCHING_RULES } });
      const again = await deps.store.db
        .selectFrom("kev_entries")
        .select("ranges")
        .where("cve_id", "=", "CVE-2022-24816")
        .executeTakeFirstOrThrow();
      expect(JSON.parse(again.ranges)).toHaveLength(1);
      const smaller = JSON.parse(readFileSync(KEV!, "utf8"));
      smaller.vulnerabilities = smaller.vulnerabilities.slice(0, 10);
      smaller.count = 10;
      smaller.catalogVersion = "2025.08.26";
      expect((await importKev(deps, feedText(JSON.stringify(smaller)))).version).toBe("2025.08.26");
      expect(await count("kev_entries")).toBe(10);
      const status = await feedStatus(deps);
      expect(status.find((s) => s.feed === "kev")).toMatchObject({ version: "2025.08.26", records: 10, age_days: 40 });
      expect(status.find((s) => s.feed === "kev")?.summary).toBe("KEV catalogue 2025.08.26, 40 days old");
      expect(status.find((s) => s.feed === "eol")?.summary).toBe("end-of-life data not imported");
    });

    it("imports endoflife.date products, replacing a product's cycles", async () => {
      const first = await importEol(deps, feedText(JSON.stringify([{ cycle: "1.28", eol: "2026-04-14" }])), "nginx");
      expect(first).toMatchObject({ feed: "eol", records: 1, changed: true, detail: { products: ["nginx"] } });
      await importEol(
        deps,
        feedText(
          JSON.stringify({
            nginx: [
              { cycle: "1.28", eol: "2026-04-14" },
              { cycle: "1.29", eol: false },
            ],
          }),
        ),
        undefined,
      );
      const row = await deps.store.db
        .selectFrom("eol_products")
        .selectAll()
        .where("product", "=", "nginx")
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.cycles)).toHaveLength(2);
    });
  });
});

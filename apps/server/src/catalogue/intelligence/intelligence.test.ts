import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  BreachCheckSchema,
  BreachProbabilitySchema,
  GradeRecordSchema,
  ThreatReportSchema,
  withNpiCheckDigit,
} from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccount } from "../../services/accounts.js";
import { importEol, importHhsBreaches, importKev } from "../../services/intel/feed-imports.js";
import { addPractice } from "../../services/practices.js";
import { enrolledPractice } from "../../test-support/enrolled-practice.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import { inventoryScanDocument } from "../../test-support/intel-documents.js";
import { sharedDataFile } from "../../test-support/shared-data.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

const CURRENT = sharedDataFile("hhs-ocr-breaches/breach_report_2024-12-09.csv", "HHS OCR breach export (2024)");
const ARCHIVE = sharedDataFile("hhs-ocr-breaches/breach_report_archive_2009-2016.csv", "HHS OCR breach archive");
const KEV = sharedDataFile("cisa-kev/known_exploited_vulnerabilities.json", "CISA KEV catalogue");

const NOW = new Date("2026-11-24T12:00:00Z");
const npi = (n: number) => withNpiCheckDigit(String(300_000_000 + n));
const fileFeed = (path: string) => {
  const text = readFileSync(path, "utf8");
  return { source: path, text, sha256: createHash("sha256").update(text).digest("hex") };
};
const textFeed = (text: string) => ({ source: "test", text, sha256: createHash("sha256").update(text).digest("hex") });

describe.skipIf(!CURRENT || !ARCHIVE || !KEV)("threat and breach intelligence over HTTPS", () => {
  let t: TestServer;
  let owner: Awaited<ReturnType<typeof accountWithKey>>;
  let other: Awaited<ReturnType<typeof accountWithKey>>;
  beforeAll(async () => {
    t = await startTestServer({ now: () => NOW });
    const deps = t.server.deps;
    await importHhsBreaches(deps, fileFeed(CURRENT!));
    await importHhsBreaches(deps, fileFeed(ARCHIVE!));
    await importKev(deps, fileFeed(KEV!));
    owner = await accountWithKey(deps, { credits: 1000, tier: "bulk" });
    other = await accountWithKey(deps, { credits: 1000, tier: "bulk" });
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });
  const get = (path: string, key = owner.apiKey) => t.request(path, { headers: { "X-API-Key": key } });
  const rpc = (method: string, params: unknown, key = owner.apiKey) =>
    t.request("/api/a2a", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": key },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
  const balance = async (accountId: string) => (await getAccount(t.server.deps, accountId)).credits;

  describe("hipaa.breach", () => {
    it("finds a registered practice's report by name and state, with the record, and charges 25", async () => {
      await addPractice(t.server.deps, {
        npi: npi(1),
        name: "Colonial Behavioral Health",
        domain: "colonialbh.example",
        state: "VA",
        accountId: owner.accountId,
      });
      const before = await balance(owner.accountId);
      const res = await get(`/v1/a2a/breach/${npi(1)}`);
      expect(res.status, res.text).toBe(200);
      const body = BreachCheckSchema.parse(res.json);
      expect(body.query).toEqual({ npi: npi(1), name: "Colonial Behavioral Health", state: "VA" });
      expect(body.matches).toEqual([
        {
          confidence: 1,
          basis: "identical_name",
          same_state: true,
          record: expect.objectContaining({
            entity_name: "Colonial Behavioral Health",
            state: "VA",
            individuals_affected: 29930,
            submitted_on: "2024-11-27",
            breach_types: ["Hacking/IT Incident"],
            locations: ["Network Server"],
          }),
        },
      ]);
      expect(body.own_incidents).toEqual([]);
      expect(body.dataset).toMatchObject({ records: 853 + 1698, newest_submission: "2024-12-03" });
      expect(res.headers["x-credits-charged"]).toBe("25");
      expect(await balance(owner.accountId)).toBe(before - 25);
      // Another key sees the matches (public records) but not the practice's own breach records.
      const theirs = await get(`/v1/a2a/breach/${npi(1)}`, other.apiKey);
      expect(theirs.json.own_incidents).toBeNull();
      expect(theirs.json.matches).toHaveLength(1);
    });

    it("looks up an unregistered entity by name and state: suffixes, d/b/a and word forms fold; near-misses do not match", async () => {
      const check = async (name: string, state: string) => {
        const res = await rpc("hipaa.breach", { name, state });
        expect(res.json.error, name).toBeUndefined();
        return BreachCheckSchema.parse(res.json.result).matches.map((m) => [
          m.confidence,
          m.basis,
          m.record.entity_name,
        ]);
      };
      expect(await check("Ardon Health", "OR")).toEqual([[0.9, "normalized_name", "Ardon Health, LLC"]]);
      expect(await check("Atlantic Orthopedic Specialists", "VA")).toEqual([
        [0.8, "dba_name", "Vann Virginia Center for Orthopaedics, PC dba Atlantic Orthopaedic Specialists"],
      ]);
      expect(await check("brooke army medical center", "tx")).toEqual([
        [1, "identical_name", "Brooke Army Medical Center"],
      ]);
      expect(await check("Jefferson Dental Clinic", "IN")).toEqual([]);
      expect(await check("Jefferson Dental Center", "OH")).toEqual([]);
      expect(await check("East Paris Internal Medicine", "MI")).toEqual([]);
      expect(await check("Atrium Health Navicent", "NC")).toEqual([]);
    });

    it("GET /v1/a2a/breach?name=…&state=… looks up an unregistered entity as hipaa.breach does, for 25 credits", async () => {
      const byName = async (name: string, state: string) => {
        const before = await balance(other.accountId);
        const res = await get(`/v1/a2a/breach?${new URLSearchParams({ name, state })}`, other.apiKey);
        expect(res.status, res.text).toBe(200);
        expect(res.headers["x-credits-charged"]).toBe("25");
        expect(await balance(other.accountId)).toBe(before - 25);
        const body = BreachCheckSchema.parse(res.json);
        expect(body.query).toEqual({ npi: null, name: name.trim(), state: state.trim().toUpperCase() });
        expect(body.own_incidents).toBeNull();
        // The agent method answers the same matches for the same query.
        const viaRpc = await rpc("hipaa.breach", { name, state }, other.apiKey);
        expect(viaRpc.json.result.matches).toEqual(body.matches);
        return body.matches.map((m) => [m.confidence, m.basis, m.record.entity_name, m.record.state]);
      };
      // Names as the practice would give them; the records as the 2024 export and the 2009–2016 archive list them.
      expect(await byName("Colonial Behavioral Health", "VA")).toEqual([
        [1, "identical_name", "Colonial Behavioral Health", "VA"],
      ]);
      expect(await byName("Ardon Health", "or")).toEqual([[0.9, "normalized_name", "Ardon Health, LLC", "OR"]]);
      expect(await byName("Atlantic Orthopedic Specialists", " VA ")).toEqual([
        [0.8, "dba_name", "Vann Virginia Center for Orthopaedics, PC dba Atlantic Orthopaedic Specialists", "VA"],
      ]);
      expect(await byName("brooke army medical center", "TX")).toEqual([
        [1, "identical_name", "Brooke Army Medical Center", "TX"],
      ]);
      // Near-misses: a similar name, the right name in another state, a longer or shorter name.
      expect(await byName("Colonial Behavioral Health Services", "VA")).toEqual([]);
      expect(await byName("Colonial Behavioral Health", "MD")).toEqual([]);
      expect(await byName("Jefferson Dental Clinic", "IN")).toEqual([]);
      expect(await byName("East Paris Internal Medicine", "MI")).toEqual([]);
      expect(await byName("Atrium Health Navicent", "NC")).toEqual([]);
    });

    it("GET /v1/a2a/breach refuses a missing or malformed name or state with invalid_query, charging nothing", async () => {
      const before = await balance(other.accountId);
      const refused = async (query: string, message: RegExp) => {
        const res = await get(`/v1/a2a/breach${query}`, other.apiKey);
        expect(res.status, query).toBe(400);
        expect(res.json.error.code, query).toBe("invalid_query");
        expect(res.json.error.message, query).toMatch(message);
        expect(res.headers["x-credits-charged"]).toBeUndefined();
      };
      await refused("", /name, state are required/);
      await refused("?name=Atrium%20Health", /state is required/);
      await refused("?state=NC", /name is required/);
      await refused("?name=Atrium%20Health&state=North%20Carolina", /query parameters/);
      await refused("?name=A&state=NC", /query parameters/);
      await refused(`?name=${"x".repeat(201)}&state=NC`, /query parameters/);
      // The registered form's parameter is not a filter here: an NPI goes in the path.
      await refused(`?name=Atrium%20Health&state=NC&npi=${npi(1)}`, /query parameters/);
      expect(await balance(other.accountId)).toBe(before);
      // Without a key it is refused before anything is looked up.
      const anonymous = await t.request("/v1/a2a/breach?name=Atrium%20Health&state=NC");
      expect(anonymous.status).toBe(401);
    });

    it("without a state on record, same-name reports anywhere count at reduced confidence", async () => {
      await addPractice(t.server.deps, {
        npi: npi(2),
        name: "Atrium Health",
        domain: "atrium.example",
        accountId: owner.accountId,
      });
      const body = BreachCheckSchema.parse((await get(`/v1/a2a/breach/${npi(2)}`)).json);
      expect(body.matches.length).toBeGreaterThan(0);
      for (const m of body.matches) expect([m.confidence, m.same_state]).toEqual([0.6, false]);
    });

    it("refuses bad input with the documented errors and charges nothing", async () => {
      const before = await balance(owner.accountId);
      expect((await get("/v1/a2a/breach/1234567890")).json.error.code).toBe("invalid_npi");
      expect((await get(`/v1/a2a/breach/${npi(99)}`)).json.error.code).toBe("npi_not_found");
      const noState = await rpc("hipaa.breach", { name: "Atrium Health" });
      expect(noState.json.error).toMatchObject({ code: -32602 });
      const badState = await rpc("hipaa.breach", { name: "Atrium Health", state: "North Carolina" });
      expect(badState.json.error).toMatchObject({ code: -32602 });
      expect(await balance(owner.accountId)).toBe(before);
    });
  });

  describe("KEV matches and end-of-life verdicts", () => {
    const NPI = npi(10);
    let practice: Awaited<ReturnType<typeof enrolledPractice>>;
    beforeAll(async () => {
      practice = await enrolledPractice(t, NPI, 5);
      const agent = await practice.enrol("frontdesk-01");
      const doc = inventoryScanDocument(agent.agentId, {
        hostname: "frontdesk-01",
        software: [
          { name: "Apache HTTP Server", version: "2.4.48" },
          { name: "Google Chrome", version: "120.0.6099.109" },
          { name: "libreoffice", version: "7.3.7" },
        ],
        eolProducts: [
          {
            kind: "software",
            name: "nginx",
            version: "1.28.0",
            product: "nginx",
            cycle: "",
            status: "unknown",
            eol: null,
          },
          {
            kind: "software",
            name: "redis-server",
            version: "8.0.2",
            product: "redis",
            cycle: "8.0",
            status: "eol",
            eol: "2025-11-01",
          },
          {
            kind: "software",
            name: "php",
            version: "7.4.33",
            product: "php",
            cycle: "7.4",
            status: "eol",
            eol: "2022-11-28",
          },
          {
            // Debian 12's own build of Redis 7.0: supported while Debian 12 is, whatever upstream's dates say.
            kind: "software",
            name: "redis-server",
            version: "5:7.0.15-1~deb12u10",
            product: "redis",
            cycle: "7.0",
            status: "supported",
            eol: "2026-06-10",
            support: "distribution",
          },
        ],
        eolFindings: [
          {
            id: "eol.end_of_life_software:redis@8.0",
            check_id: "eol.end_of_life_software",
            source: "internal",
            category: "asset_management",
            severity: "high",
            title: "redis-server 8.0.2 is past its end of life (2025-11-01)",
            detail: "stale verdict of an old bundled dataset",
            evidence: { name: "redis-server", version: "8.0.2", product: "redis", cycle: "8.0", eol: "2025-11-01" },
            remediation: "Upgrade",
            controls: ["164.308(a)(1)(ii)(B)"],
            grade_cap: "end_of_life_system",
          },
          {
            // A verdict whose product the (trimmed) facts do not list: the server cannot re-judge it, so it stays.
            id: "eol.end_of_life_software:mongodb@4.4",
            check_id: "eol.end_of_life_software",
            source: "internal",
            category: "asset_management",
            severity: "high",
            title: "mongod 4.4.29 is past its end of life (2024-02-29)",
            detail: "d",
            evidence: { name: "mongod", version: "4.4.29", product: "mongodb", cycle: "4.4", eol: "2024-02-29" },
            remediation: "Upgrade",
            controls: ["164.308(a)(1)(ii)(B)"],
            grade_cap: "end_of_life_system",
          },
        ],
      });
      const res = await practice.upload(agent, doc);
      expect(res.status, res.text).toBe(201);
      const second = await practice.enrol("billing-02");
      const patched = inventoryScanDocument(second.agentId, {
        hostname: "billing-02",
        software: [{ name: "apache2", version: "2.4.58-1ubuntu8" }],
      });
      expect((await practice.upload(second, patched)).status).toBe(201);
    }, 120_000);

    const openFindings = async () =>
      (
        await t.server.deps.store.db
          .selectFrom("findings")
          .select(["finding_id", "check_id", "severity", "grade_cap", "subject", "evidence"])
          .where("npi", "=", NPI)
          .where("source", "=", "internal")
          .where("resolved_at", "is", null)
          .orderBy("finding_id")
          .execute()
      ).filter((f) => f.check_id.startsWith("eol.") || f.check_id.startsWith("patches."));

    it("GET /v1/a2a/threats/{npi} lists version-confirmed and product-only KEV matches, never a fixed version", async () => {
      // Built from the practice's scanner uploads: the owner's, never another account's (and it costs them nothing).
      const before = await balance(other.accountId);
      const theirs = await get(`/v1/a2a/threats/${NPI}`, other.apiKey);
      expect([theirs.status, theirs.json.error.code]).toEqual([403, "forbidden"]);
      expect(theirs.text).not.toContain("CVE-");
      expect(await balance(other.accountId)).toBe(before);
      const res = await get(`/v1/a2a/threats/${NPI}`, practice.ownerKey);
      expect(res.status, res.text).toBe(200);
      expect(res.headers["x-credits-charged"]).toBe("25");
      const report = ThreatReportSchema.parse(res.json);
      expect(report.inventory).toEqual({ hosts: 2, software: 6, disclosed_by_public_servers: 0 });
      const confirmed = report.matches.filter((m) => m.version_match === "affected");
      expect(confirmed).toEqual([
        expect.objectContaining({
          cve: "CVE-2021-40438",
          kev_vendor: "Apache",
          kev_product: "Apache",
          software: "Apache HTTP Server",
          version: "2.4.48",
          seen_on: "host:frontdesk-01",
          affected_versions: ["2.4.48 and earlier"],
          due_date: "2021-12-15",
          known_ransomware_use: false,
        }),
      ]);
      // billing-02's 2.4.58 is past the stated range: no claim of CVE-2021-40438 there.
      expect(report.matches.some((m) => m.cve === "CVE-2021-40438" && m.seen_on === "host:billing-02")).toBe(false);
      // Entries stating no versions are product-only matches, reported for both hosts, never graded.
      expect(
        report.matches.some(
          (m) => m.cve === "CVE-2021-41773" && m.seen_on === "host:billing-02" && m.version_match === "unknown",
        ),
      ).toBe(true);
      expect(report.matches.filter((m) => m.software === "Google Chrome").length).toBeGreaterThan(10);
      expect(report.summary).toMatchObject({ version_confirmed: 1, past_due: 1, known_ransomware_use: 0 });
      expect(report.kev_catalog?.version).toBe("2025.08.25");
      expect(report.sector).toMatchObject({
        entity_type: "Healthcare Provider",
        state: null,
        to: "2024-12-03",
        from: "2022-12-03",
      });
      expect(report.sector.breach_types[0]).toEqual({ name: "Hacking/IT Incident", count: expect.any(Number) });
      expect(report.sector.locations[0]?.name).toBe("Network Server");
    });

    it("a version-confirmed KEV match is a graded finding that caps the grade once past CISA's due date", async () => {
      const kev = (await openFindings()).filter((f) => f.check_id === "patches.known_exploited_vulnerability");
      expect(kev.map((f) => [f.finding_id, f.subject, f.severity, f.grade_cap])).toEqual([
        [
          "patches.known_exploited_vulnerability:CVE-2021-40438@Apache_HTTP_Server",
          "frontdesk-01",
          "high",
          "known_exploited_past_due",
        ],
      ]);
      const grade = GradeRecordSchema.parse((await get(`/v1/a2a/grade/${NPI}`)).json);
      expect(grade.caps_applied.map((c) => c.id)).toContain("known_exploited_past_due");
      expect(grade.scoring_version).toBe("hcs-score-2026.3");
    });

    it("end-of-life verdicts: the scanner's stand until the server holds data, then every host is re-judged on import", async () => {
      const before = await openFindings();
      expect(before.filter((f) => f.check_id.startsWith("eol.")).map((f) => f.finding_id)).toEqual([
        "eol.end_of_life_software:mongodb@4.4",
        "eol.end_of_life_software:php@7.4",
        "eol.end_of_life_software:redis@8.0",
      ]);
      // Fresher endoflife.date data: nginx 1.28 has ended, redis 8.0 is supported, upstream's redis 7.0 has ended
      // (Debian's build of it is not judged by that date).
      const report = await importEol(
        t.server.deps,
        textFeed(
          JSON.stringify({
            nginx: [
              { cycle: "1.29", releaseDate: "2025-06-24", eol: false },
              { cycle: "1.28", releaseDate: "2025-04-23", eol: "2026-04-14" },
            ],
            redis: [
              { cycle: "8.0", releaseDate: "2025-05-02", eol: false },
              { cycle: "7.0", releaseDate: "2022-04-27", eol: "2024-07-29" },
            ],
          }),
        ),
        undefined,
      );
      expect(report.detail.hosts_reevaluated).toBe(2);
      const after = (await openFindings()).filter((f) => f.check_id.startsWith("eol."));
      expect(after.map((f) => [f.finding_id, JSON.parse(f.evidence).judged_by])).toEqual([
        ["eol.end_of_life_software:mongodb@4.4", undefined],
        ["eol.end_of_life_software:nginx@1.28", "server"],
        ["eol.end_of_life_software:php@7.4", "scanner"],
      ]);
      // The KEV finding survived the re-evaluation.
      expect((await openFindings()).some((f) => f.check_id === "patches.known_exploited_vulnerability")).toBe(true);
    });

    it("hipaa.breach_probability explains its estimate with factors and evidence", async () => {
      const theirs = await rpc("hipaa.breach_probability", { npi: NPI, size_band: "medium" }, other.apiKey);
      expect(theirs.json.error.data.code).toBe("forbidden");
      const res = await rpc("hipaa.breach_probability", { npi: NPI, size_band: "medium" }, practice.ownerKey);
      expect(res.json.error).toBeUndefined();
      const p = BreachProbabilitySchema.parse(res.json.result);
      expect(p.model_version).toBe("hcs-breach-model-2026.1");
      expect(p.base_rate).toMatchObject({
        entity_type: "Healthcare Provider",
        size_band: "medium",
        window: { to: "2024-12-03" },
      });
      const kev = p.factors.find((f) => f.id === "kev_unpatched")!;
      expect(kev).toMatchObject({ present: true, multiplier: 1.8 });
      expect(kev.evidence[0]?.finding_id).toBe(
        "patches.known_exploited_vulnerability:CVE-2021-40438@Apache_HTTP_Server",
      );
      expect(kev.contribution).toBeGreaterThan(0);
      expect(p.factors.find((f) => f.id === "remote_access_exposed")).toMatchObject({
        present: false,
        contribution: 0,
      });
      expect(p.probability).toBeGreaterThan(p.base_rate.probability);
      expect(p.not_assessed).toContain("no administrative assessment: factors it would show cannot be seen");
    });
  });

  it("the reputation snapshot counts the breaches tracked and /readyz shows each feed's age", async () => {
    const rep = await t.request("/api/reputation");
    expect(rep.json.breaches_tracked).toBe(853 + 1698);
    const ready = await t.request("/readyz");
    const summaries = (ready.json.details.feeds as { summary: string }[]).map((f) => f.summary);
    expect(summaries).toEqual([
      "HHS OCR breach data 2024-12-03, 721 days old",
      "KEV catalogue 2025.08.25, 455 days old",
      "end-of-life data 2 products, 0 days old",
    ]);
  });
});

import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vendorRiskScore } from "../../administrative/vendor-risk.js";
import { type SamplePractices, samplePracticesEnv, startSamplePractices } from "../../sample-practices/index.js";
import { importHhsBreaches } from "../../services/intel/feed-imports.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

// The vendors' domains are sample practices served on loopback (their own DNS and CA): no traffic leaves the host.
let samples: SamplePractices;
let t: TestServer;
let tmp: string;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
const NPI = "1234567893";
beforeAll(async () => {
  samples = await startSamplePractices({ loopbackPrefix: "127.0.47" });
  tmp = mkdtempSync(join(tmpdir(), "hcs-vendor-"));
  t = await startTestServer({ env: samplePracticesEnv(samples, tmp) });
  owner = await accountWithKey(t.server.deps, { plan: "professional", credits: 1000 });
  await gradedPractice(t.server.deps, owner.accountId, NPI);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await samples?.stop();
  rmSync(tmp, { recursive: true, force: true });
});
const key = () => ({ "X-API-Key": owner.apiKey });

describe("hipaa.vendor_risk", () => {
  it("grades each vendor's domain with the external scan engine, charges the scan once, and scores the documented factors", async () => {
    const vendor = samples.practices[0]!;
    await t.request(`/v1/a2a/baa/${NPI}`, {
      method: "POST",
      headers: key(),
      body: {
        action: "upsert",
        vendor: { name: "Scan Vendor", domain: vendor.domain, phi_access: true, baa_status: "none" },
      },
    });
    await t.request(`/v1/a2a/baa/${NPI}`, {
      method: "POST",
      headers: key(),
      body: { action: "upsert", vendor: { name: "Paper Shredding", phi_access: false, baa_status: "none" } },
    });
    const first = await t.request(`/v1/a2a/vendor-risk/${NPI}`, { headers: key(), timeoutMs: 60_000 });
    expect(first.status, first.text).toBe(200);
    expect(first.headers["x-credits-charged"]).toBe("175");
    expect(first.json.domains_scanned).toBe(1);
    const scanned = first.json.vendors.find((v: { name: string }) => v.name === "Scan Vendor");
    expect(scanned.external_grade.status).toBe("graded");
    expect(vendor.expected.grades).toContain(scanned.external_grade.grade);
    expect(scanned.breach_history.status).toBe("not_available");
    expect(scanned.factors.map((f: { factor: string }) => f.factor)).toEqual([
      "phi_access",
      "baa",
      "external_grade",
      "breach_history",
    ]);
    expect(scanned.score).toBe(scanned.factors.reduce((n: number, f: { points: number }) => n + f.points, 0));
    const shredder = first.json.vendors.find((v: { name: string }) => v.name === "Paper Shredding");
    expect(shredder.external_grade.detail).toContain("no domain");

    // The grade is reused for 30 days: the next call costs only the lookup.
    const second = await t.request(`/v1/a2a/vendor-risk/${NPI}`, { headers: key() });
    expect(second.headers["x-credits-charged"]).toBe("25");
    expect(second.json.domains_scanned).toBe(0);
  }, 90_000);

  it("refuses a scan the balance cannot cover before scanning, and other accounts", async () => {
    const poor = await accountWithKey(t.server.deps, { plan: "professional", credits: 100 });
    await gradedPractice(t.server.deps, poor.accountId, "1245319599");
    const res = await t.request(`/v1/a2a/vendor-risk/1245319599?vendor_domain=${samples.practices[1]!.domain}`, {
      headers: { "X-API-Key": poor.apiKey },
    });
    expect(res.status).toBe(402);
    expect(res.json.error).toMatchObject({ code: "insufficient_credits", details: { required: 175, balance: 100 } });
    expect(samples.connectionCounts(samples.practices[1]!.npi).size).toBe(0);
    const foreign = await t.request(`/v1/a2a/vendor-risk/${NPI}`, { headers: { "X-API-Key": poor.apiKey } });
    expect(foreign.json.error.code).toBe("forbidden");
    const bad = await t.request(`/v1/a2a/vendor-risk/${NPI}?vendor_domain=127.0.0.1`, { headers: key() });
    expect(bad.json.error.code).toBe("invalid_query");
  });

  it("counts a vendor's HHS OCR breach reports of the last three years once the breach data is imported", async () => {
    const recent = `${new Date().getUTCFullYear() - 1}-03-14`;
    const csv = [
      "Name of Covered Entity,State,Covered Entity Type,Individuals Affected,Breach Submission Date,Type of Breach,Location of Breached Information,Business Associate Present,Web Description",
      `"Records Courier, LLC",TX,Business Associate,12000,${recent},Theft,Paper/Films,Yes,`,
      `Records Courier Holdings,TX,Business Associate,900,${recent},Hacking/IT Incident,Network Server,Yes,`,
    ].join("\n");
    await importHhsBreaches(t.server.deps, {
      source: "test",
      text: csv,
      sha256: createHash("sha256").update(csv).digest("hex"),
    });
    const added = await t.request(`/v1/a2a/baa/${NPI}`, {
      method: "POST",
      headers: key(),
      body: { action: "upsert", vendor: { name: "Records Courier LLC", phi_access: true, baa_status: "pending" } },
    });
    expect(added.status, added.text).toBe(200);
    const res = await t.request(`/v1/a2a/vendor-risk/${NPI}`, { headers: key(), timeoutMs: 60_000 });
    expect(res.status, res.text).toBe(200);
    const courier = res.json.vendors.find((v: { name: string }) => v.name === "Records Courier LLC");
    // Its own name (suffix and punctuation folded) matches; "Records Courier Holdings" is another entity.
    expect(courier.breach_history).toMatchObject({ status: "available", breaches: 1 });
    expect(courier.breach_history.detail).toContain(recent);
  });

  it("scores by the documented table", () => {
    expect(
      vendorRiskScore({
        phi_access: true,
        coverage: "missing",
        grade: { status: "graded", grade: "F", score: 40, detail: "" },
        breaches: null,
      }),
    ).toMatchObject({ score: 90, band: "critical" });
    expect(
      vendorRiskScore({
        phi_access: true,
        coverage: "current",
        grade: { status: "graded", grade: "A", score: 95, detail: "" },
        breaches: 0,
      }),
    ).toMatchObject({ score: 20, band: "moderate" });
    expect(vendorRiskScore({ phi_access: false, coverage: null, grade: null, breaches: null })).toMatchObject({
      score: 15,
      band: "low",
    });
  });
});

/** Ten calls at once on one balance: exactly the work the balance pays for is done, and every credit is accounted. */
function raceSuite(engine: "sqlite" | "postgres") {
  describe(`concurrent paid calls on ${engine}`, () => {
    let server: TestServer;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "hcs-vendor-race-"));
      server = await startTestServer({ engine, env: samplePracticesEnv(samples, dir) });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const ledgerSum = async (accountId: string) =>
      Number(
        (
          await server.server.deps.store.db
            .selectFrom("credit_ledger")
            .select((eb) => eb.fn.sum<number>("delta").as("sum"))
            .where("account_id", "=", accountId)
            .executeTakeFirstOrThrow()
        ).sum,
      );
    const balanceOf = async (accountId: string) =>
      (
        await server.server.deps.store.db
          .selectFrom("accounts")
          .select("credits")
          .where("id", "=", accountId)
          .executeTakeFirstOrThrow()
      ).credits;

    it("ten vendor-risk calls on 175 credits: one scans and is charged 175, nine are refused 402 without scanning", async () => {
      const racer = await accountWithKey(server.server.deps, { plan: "professional", credits: 175, tier: "bulk" });
      // The account's opening grant is its first ledger row: the ledger sums to the balance throughout.
      expect(await ledgerSum(racer.accountId)).toBe(175);
      const npi = engine === "sqlite" ? "1306849450" : "1417928557";
      await gradedPractice(server.server.deps, racer.accountId, npi);
      const domains = samples.practices.map((p) => p.domain);
      const connections = (npi: string) => [...samples.connectionCounts(npi).values()].reduce((n, c) => n + c, 0);
      const before = samples.practices.map((p) => connections(p.npi));
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          server.request(`/v1/a2a/vendor-risk/${npi}?vendor_domain=${domains[i % domains.length]}`, {
            headers: { "X-API-Key": racer.apiKey },
            timeoutMs: 90_000,
          }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, ...Array(9).fill(402)]);
      const paid = answers.find((a) => a.status === 200)!;
      expect([paid.headers["x-credits-charged"], paid.headers["x-credits-remaining"]]).toEqual(["175", "0"]);
      expect(paid.json.domains_scanned).toBe(1);
      for (const refused of answers.filter((a) => a.status === 402))
        expect(refused.json.error.code).toBe("insufficient_credits");
      // Only the paid call reached a vendor's servers.
      const reached = samples.practices.filter((p, i) => connections(p.npi) > before[i]!);
      expect(reached).toHaveLength(1);
      expect(await balanceOf(racer.accountId)).toBe(0);
      expect(await ledgerSum(racer.accountId)).toBe(0);
    }, 120_000);

    it("a reservation a call does not use is refunded: a domain graded meanwhile costs only the lookup", async () => {
      const owner2 = await accountWithKey(server.server.deps, { plan: "professional", credits: 1000, tier: "bulk" });
      const npi = engine === "sqlite" ? "1245319599" : "1609837921";
      await gradedPractice(server.server.deps, owner2.accountId, npi);
      const domain = samples.practices[2]!.domain;
      // Two at once for the same new domain: both reserve a scan; the domain's grade is stored by whichever scans
      // first, and each pays for what it did — at most one scan each, never more than reserved.
      const [a, b] = await Promise.all(
        [0, 1].map(() =>
          server.request(`/v1/a2a/vendor-risk/${npi}?vendor_domain=${domain}`, {
            headers: { "X-API-Key": owner2.apiKey },
            timeoutMs: 90_000,
          }),
        ),
      );
      for (const r of [a!, b!]) {
        expect(r.status, r.text).toBe(200);
        expect(Number(r.headers["x-credits-charged"])).toBe(25 + 150 * r.json.domains_scanned);
      }
      const third = await server.request(`/v1/a2a/vendor-risk/${npi}?vendor_domain=${domain}`, {
        headers: { "X-API-Key": owner2.apiKey },
      });
      expect([third.headers["x-credits-charged"], third.json.domains_scanned]).toEqual(["25", 0]);
      const charged = [a!, b!, third].reduce((n, r) => n + Number(r.headers["x-credits-charged"]), 0);
      expect(await balanceOf(owner2.accountId)).toBe(1000 - charged);
      expect(await ledgerSum(owner2.accountId)).toBe(1000 - charged);
    }, 120_000);
  });
}

raceSuite("sqlite");
describe.skipIf(!(await shouldRunPostgres()))("postgres", () => raceSuite("postgres"));

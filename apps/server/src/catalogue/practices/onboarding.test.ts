import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Claim, ClaimSchema, JobSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SamplePractices, samplePracticesEnv, startSamplePractices } from "../../sample-practices/index.js";
import { DIRECTORY_ACCOUNT_ID, recheckClaims } from "../../services/claims/claims.js";
import { proofIOFor } from "../../services/claims/proof-io.js";
import { newAgentKeys, registrationBody, uploadRequest } from "../../test-support/agent-client.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import { importDirectoryRecordFor } from "../../test-support/nppes-files.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * The onboarding journey of docs/onboarding.md, over HTTPS against the loopback sample practices: a fresh free key
 * adds its practice from the directory, proves control with a DNS TXT record, scans it, reads its findings and
 * enrols a scanner; a second key reads none of it; a claimant who has not proved control gets only what is public;
 * a second claimant proving control of the same practice is contested; a proof that disappears lapses.
 */
function journey(engine: "sqlite" | "postgres", loopbackPrefix: string) {
  describe(`onboarding with proof of control on ${engine}`, () => {
    let samples: SamplePractices;
    let t: TestServer;
    let tmp: string;
    const HOUR = 3_600_000;
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    beforeAll(async () => {
      samples = await startSamplePractices({ loopbackPrefix });
      tmp = mkdtempSync(join(tmpdir(), "hcs-onboarding-"));
      t = await startTestServer({ engine, worker: true, now, env: samplePracticesEnv(samples, tmp) });
      // The operator imported the NPPES files: the sample practices are in the directory, with their endpoints.
      for (const p of samples.practices.slice(0, 2))
        await importDirectoryRecordFor(t.server.deps, {
          npi: p.npi,
          name: p.name.toUpperCase(),
          state: "OH",
          domain: p.domain,
        });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await samples?.stop();
      rmSync(tmp, { recursive: true, force: true });
    });

    const as = (key: string) => ({ "X-API-Key": key });
    const get = (path: string, key: string) => t.request(path, { headers: as(key) });
    const post = (path: string, key: string, body: unknown = {}) =>
      t.request(path, { method: "POST", headers: as(key), body });
    async function freeKey(email: string): Promise<string> {
      const res = await t.request("/v1/a2a/keys", { method: "POST", body: { email, organization: "Practice" } });
      expect(res.status, res.text).toBe(201);
      return res.json.api_key as string;
    }
    async function completedJob(pollUrl: string, key: string) {
      const end = Date.now() + 60_000;
      for (;;) {
        const job = JobSchema.parse((await get(pollUrl, key)).json);
        if (job.status === "completed" || job.status === "failed") return job;
        if (Date.now() > end) throw new Error(`job still ${job.status}`);
        await new Promise((r) => setTimeout(r, 150));
      }
    }

    let owner: string;
    let claim: Claim;
    // The owner's scanner and a deploy token it has not used yet: they hold while the owner owns the practice.
    const scanner = { keys: newAgentKeys(), agentId: "" };
    let spareToken: string;
    const upload = (agentId = scanner.agentId, keys = scanner.keys) =>
      t.request("/v1/a2a/network/results", uploadRequest(agentId, keys.privateKey));
    const register = (deployToken: string, keys = newAgentKeys()) =>
      t.request("/v1/a2a/network/register", {
        method: "POST",
        body: registrationBody(deployToken, keys, "frontdesk-02"),
      });
    // The owner's practice (a poorly run one: its scan has findings to read) and the one a claimant never proves.
    const ownPractice = () => samples.practices[1]!;
    const claimedPractice = () => samples.practices[0]!;

    it("a fresh free key adds its practice from the directory and proves control with a DNS TXT record", async () => {
      owner = await freeKey("owner@maple-pediatrics.test");
      const entry = await get(`/v1/a2a/directory/${ownPractice().npi}`, owner);
      expect(entry.json.candidate_domains.map((d: { domain: string }) => d.domain)).toContain(
        `www.${ownPractice().domain}`,
      );
      const added = await post("/v1/a2a/claims", owner, { npi: ownPractice().npi, domain: ownPractice().domain });
      expect(added.status, added.text).toBe(201);
      claim = ClaimSchema.parse(added.json);
      expect(claim).toMatchObject({
        practice_name: ownPractice().name.toUpperCase(),
        status: "pending",
        owner: false,
        challenge: { dns_txt: { name: `_hcs-verification.${ownPractice().domain}` } },
      });
      // Not published yet: the check says what it saw, and the claim stays pending.
      const early = await post(`/v1/a2a/claims/${claim.claim_id}/verify`, owner);
      expect(early.json).toMatchObject({ status: "pending", last_check: { dns_txt: { found: false } } });
      samples.publishTxt(claim.challenge.dns_txt.name, claim.challenge.dns_txt.value);
      const proved = await post(`/v1/a2a/claims/${claim.claim_id}/verify`, owner);
      expect(proved.status, proved.text).toBe(200);
      expect(proved.json).toMatchObject({ status: "proved", owner: true, method: "dns_txt" });
    });

    it("the owner scans it, reads its findings and enrols a scanner with a deploy token", async () => {
      const scan = await post("/v1/a2a/scans/dispatch", owner, { npi: ownPractice().npi, scan_type: "full" });
      expect(scan.status, scan.text).toBe(202);
      const job = await completedJob(scan.json.poll_url, owner);
      expect(job.status, JSON.stringify(job.error)).toBe("completed");
      expect(ownPractice().expected.grades).toContain(job.result!.grade);
      const findings = await get(`/v1/a2a/findings/${ownPractice().npi}`, owner);
      expect(findings.status, findings.text).toBe(200);
      expect(findings.json.findings.length).toBeGreaterThan(0);
      const token = await post(`/v1/a2a/network/deploy/${ownPractice().npi}`, owner);
      expect(token.status, token.text).toBe(201);
      const registered = await t.request("/v1/a2a/network/register", {
        method: "POST",
        body: registrationBody(token.json.deploy_token, scanner.keys, "frontdesk-01"),
      });
      expect(registered.status, registered.text).toBe(201);
      scanner.agentId = registered.json.agent_id;
      const uploaded = await upload();
      expect(uploaded.status, uploaded.text).toBe(201);
      spareToken = (await post(`/v1/a2a/network/deploy/${ownPractice().npi}`, owner)).json.deploy_token;
    }, 90_000);

    it("a second key reads none of it", async () => {
      const other = await freeKey("someone@elsewhere.test");
      const npi = ownPractice().npi;
      for (const path of [`/v1/a2a/findings/${npi}`, `/v1/a2a/evidence/${npi}`, `/v1/a2a/threats/${npi}`]) {
        const res = await get(path, other);
        expect([path, res.status, res.json.error?.code]).toEqual([path, 403, "forbidden"]);
      }
      expect((await post(`/v1/a2a/network/deploy/${npi}`, other)).json.error.code).toBe("forbidden");
      expect((await get(`/v1/a2a/claims/${claim.claim_id}`, other)).json.error.code).toBe("not_found");
      expect((await post(`/v1/a2a/claims/${claim.claim_id}/verify`, other)).json.error.code).toBe("not_found");
      // What is public stays public: the grade.
      expect((await get(`/v1/a2a/grade/${npi}`, other)).json.grade).toBeDefined();
    });

    it("a claimant who has not proved control may scan the public surface and gets nothing owner-only", async () => {
      const claimant = await accountWithKey(t.server.deps, { plan: "professional", tier: "standard", credits: 1_000 });
      const npi = claimedPractice().npi;
      const added = await post("/v1/a2a/claims", claimant.apiKey, { npi, domain: claimedPractice().domain });
      expect(added.json).toMatchObject({ status: "pending", owner: false });
      const held = await t.server.deps.store.db
        .selectFrom("practices")
        .select("account_id")
        .where("npi", "=", npi)
        .executeTakeFirst();
      expect(held?.account_id).toBe(DIRECTORY_ACCOUNT_ID);
      const scan = await post("/v1/a2a/scans/dispatch", claimant.apiKey, { npi, scan_type: "full" });
      expect(scan.status, scan.text).toBe(202);
      const job = await completedJob(scan.json.poll_url, claimant.apiKey);
      expect(job.status, JSON.stringify(job.error)).toBe("completed");
      expect(job.result).toBeUndefined();
      expect(job.public_result?.grade).toBeDefined();
      expect(JSON.stringify(job)).not.toContain('"findings"');
      expect((await get(`/v1/a2a/reports/${job.job_id}`, claimant.apiKey)).json.error.code).toBe("forbidden");
      for (const path of [`/v1/a2a/findings/${npi}`, `/v1/a2a/evidence/${npi}`, `/v1/a2a/threats/${npi}`]) {
        const res = await get(path, claimant.apiKey);
        expect([path, res.json.error?.code]).toEqual([path, "forbidden"]);
      }
      expect((await post(`/v1/a2a/network/deploy/${npi}`, claimant.apiKey)).json.error.code).toBe("forbidden");
      const groupA = await t.request(`/v1/practice?npi=${npi}`, {
        headers: { Authorization: `Bearer ${claimant.apiKey}` },
      });
      expect(groupA.json.error.code).toBe("forbidden");
      // Nothing was recorded for the practice: its grade lookup is still the directory's not-yet-assessed answer.
      expect((await get(`/v1/a2a/grade/${npi}`, claimant.apiKey)).json.assessment).toBe("not_yet_assessed");
    }, 90_000);

    it("a second claimant proving control while the owner's proof holds is contested; the operator's word decides", async () => {
      const rival = await accountWithKey(t.server.deps, { credits: 500 });
      const added = ClaimSchema.parse(
        (await post("/v1/a2a/claims", rival.apiKey, { npi: ownPractice().npi, domain: ownPractice().domain })).json,
      );
      samples.publishFile(
        ownPractice().npi,
        "/.well-known/hcs-verification.txt",
        `${added.challenge.well_known.body}\n`,
      );
      const verified = await post(`/v1/a2a/claims/${added.claim_id}/verify`, rival.apiKey);
      expect(verified.json).toMatchObject({
        status: "contested",
        owner: false,
        last_check: { well_known: { found: true } },
      });
      // The owner keeps the practice.
      expect((await get(`/v1/a2a/findings/${ownPractice().npi}`, owner)).status).toBe(200);
      expect((await get(`/v1/a2a/findings/${ownPractice().npi}`, rival.apiKey)).json.error.code).toBe("forbidden");
      samples.publishFile(ownPractice().npi, "/.well-known/hcs-verification.txt", null);
    });

    it("a proof that disappears lapses after the grace period: the practice goes back to the directory", async () => {
      samples.withdrawTxt(claim.challenge.dns_txt.name);
      const io = proofIOFor(t.server.deps.config);
      offset = 25 * HOUR;
      expect(await recheckClaims(t.server.deps, io)).toMatchObject({ checked: 1, failing: 1, lapsed: 0 });
      expect((await get(`/v1/a2a/claims/${claim.claim_id}`, owner)).json).toMatchObject({ status: "proved" });
      expect((await get(`/v1/a2a/findings/${ownPractice().npi}`, owner)).status).toBe(200);
      offset = 25 * HOUR + 73 * HOUR;
      expect(await recheckClaims(t.server.deps, io)).toMatchObject({ lapsed: 1 });
      expect((await get(`/v1/a2a/claims/${claim.claim_id}`, owner)).json).toMatchObject({
        status: "lapsed",
        owner: false,
      });
      expect((await get(`/v1/a2a/findings/${ownPractice().npi}`, owner)).json.error.code).toBe("forbidden");
      const lapsed = await t.server.deps.store.db
        .selectFrom("audit_events")
        .select(["actor_account_id", "resource"])
        .where("action", "=", "claim.lapsed")
        .execute();
      expect(lapsed.map((e) => e.resource)).toContain(`claim:${claim.claim_id}`);
      // Its enrolments ended with the ownership: the scanner's uploads and the unused token are refused, and nothing
      // of the upload is stored.
      const uploads = async () =>
        (await t.server.deps.store.db.selectFrom("scan_uploads").select("scan_id").execute()).length;
      const before = await uploads();
      const refused = await upload();
      expect([refused.status, refused.json.error?.code]).toEqual([403, "agent_revoked"]);
      expect(await uploads()).toBe(before);
      const late = await register(spareToken);
      expect([late.status, late.json.error?.code]).toEqual([401, "deploy_token_revoked"]);
      // Proving again restores it.
      samples.publishTxt(claim.challenge.dns_txt.name, claim.challenge.dns_txt.value);
      const again = ClaimSchema.parse(
        (await post("/v1/a2a/claims", owner, { npi: ownPractice().npi, domain: ownPractice().domain })).json,
      );
      samples.publishTxt(again.challenge.dns_txt.name, again.challenge.dns_txt.value);
      expect((await post(`/v1/a2a/claims/${again.claim_id}/verify`, owner)).json).toMatchObject({ status: "proved" });
      expect((await get(`/v1/a2a/findings/${ownPractice().npi}`, owner)).status).toBe(200);
      // The practice, not the old enrolments: the revoked scanner stays revoked, a new deploy token enrols it again.
      expect((await upload()).json.error?.code).toBe("agent_revoked");
      const fresh = await post(`/v1/a2a/network/deploy/${ownPractice().npi}`, owner);
      const keys = newAgentKeys();
      const enrolled = await register(fresh.json.deploy_token, keys);
      expect(enrolled.status, enrolled.text).toBe(201);
      const accepted = await upload(enrolled.json.agent_id, keys);
      expect(accepted.status, accepted.text).toBe(201);
    });
  });
}

journey("sqlite", "127.0.64");
describe.skipIf(!(await shouldRunPostgres()))("postgres", () => journey("postgres", "127.0.65"));

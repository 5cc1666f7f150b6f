import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SamplePractices, samplePracticesEnv, startSamplePractices } from "../../sample-practices/index.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import { importDirectoryRecordFor } from "../../test-support/nppes-files.js";
import type { PortalClient } from "../../test-support/portal-client.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * Adding a practice in the portal (Settings → Add a practice), over real HTTPS, signed in through the pages: the
 * practice comes from the directory, the page shows the challenge, the person publishes it on a loopback sample
 * practice and verifies; the claim goes through the API's own operations (audited with transport portal).
 */
describe("portal: adding a practice with proof of control", () => {
  let samples: SamplePractices;
  let t: TestServer;
  let tmp: string;
  let owner: PortalClient;
  beforeAll(async () => {
    samples = await startSamplePractices({ loopbackPrefix: "127.0.66" });
    tmp = mkdtempSync(join(tmpdir(), "hcs-portal-claims-"));
    t = await startTestServer({ env: samplePracticesEnv(samples, tmp) });
    const p = samples.practices[2]!;
    await importDirectoryRecordFor(t.server.deps, {
      npi: p.npi,
      name: "RIVERSIDE CLINIC",
      state: "OH",
      domain: p.domain,
    });
    const account = await accountWithKey(t.server.deps, { credits: 500 });
    owner = (await invitedAndSignedIn(t, account.accountId, "owner@riverside.example", "owner")).browser;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await samples?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("adds the practice from the directory, shows the challenge, and verifies the published file", async () => {
    const p = samples.practices[2]!;
    await owner.get("/portal/settings/practices");
    const bad = await owner.post("/portal/settings/practices", { npi: "1245319599", domain: p.domain });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("not in the NPPES directory");
    await owner.get("/portal/settings/practices");
    const added = await owner.post("/portal/settings/practices", { npi: p.npi, domain: p.domain });
    expect(added.status).toBe(303);
    const page = await owner.get("/portal/settings/practices?added=1");
    expect(page.text).toContain("RIVERSIDE CLINIC");
    expect(page.text).toContain(`www.${p.domain}`);
    const token = /hcs-verification=([A-Za-z0-9_-]+)/.exec(page.text)![1]!;
    const claimId = /data-claim="(clm_[^"]+)"/.exec(page.text)![1]!;
    const early = await owner.post(`/portal/settings/practices/${claimId}/verify`, {});
    expect(early.text).toContain("was not found yet");
    samples.publishFile(p.npi, "/.well-known/hcs-verification.txt", `hcs-verification=${token}\n`);
    await owner.get("/portal/settings/practices");
    const verified = await owner.post(`/portal/settings/practices/${claimId}/verify`, {});
    expect(verified.status).toBe(303);
    const dashboard = await owner.get(`/portal/practices/${p.npi}`);
    expect(dashboard.status).toBe(200);
    const events = await t.server.deps.store.db
      .selectFrom("audit_events")
      .select(["action", "transport", "outcome"])
      .where("transport", "=", "portal")
      .where("action", "in", ["hipaa.claim_practice", "verifyClaim"])
      .orderBy("id")
      .execute();
    expect(events.map((e) => [e.action, e.outcome])).toEqual([
      ["hipaa.claim_practice", "failure"],
      ["hipaa.claim_practice", "success"],
      ["verifyClaim", "success"],
      ["verifyClaim", "success"],
    ]);
  }, 60_000);
});

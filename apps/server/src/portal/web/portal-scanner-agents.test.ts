import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAgentKeys, registrationBody, scanDocument, uploadHeaders } from "../../test-support/agent-client.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

// The portal's scanner page after a CI script ran `hcs-scanner one-shot` three times on one machine: one installed
// scanner row, and one group of one-shot runs (before: a row per run, each "active" for ever).

const NPI = "1234567893";

describe("the portal's scanner page lists one-shot runs grouped, apart from the installed scanners", () => {
  let t: TestServer;
  let owner: Awaited<ReturnType<typeof accountWithKey>>;
  // The server's clock: moved back for the runs of three hours ago, the real time otherwise (sign-in codes are the
  // real time's).
  let offsetMs = 0;

  beforeAll(async () => {
    t = await startTestServer({ now: () => new Date(Date.now() + offsetMs) });
    owner = await accountWithKey(t.server.deps, { plan: "professional", credits: 1000 });
    await gradedPractice(t.server.deps, owner.accountId, NPI);
  });
  afterAll(() => t.close());

  async function enrolAndUpload(hostname: string, ephemeral: boolean) {
    const token = (
      await t.request(`/v1/a2a/network/deploy/${NPI}`, { method: "POST", headers: { "X-API-Key": owner.apiKey } })
    ).json.deploy_token as string;
    const keys = newAgentKeys();
    const registered = await t.request("/v1/a2a/network/register", {
      method: "POST",
      body: { ...registrationBody(token, keys, hostname), ephemeral },
    });
    expect(registered.status, registered.text).toBe(201);
    const agentId = registered.json.agent_id as string;
    const doc = scanDocument(agentId, { hostname });
    const body = JSON.stringify(doc);
    const uploaded = await t.request("/v1/a2a/network/results", {
      method: "POST",
      headers: uploadHeaders(agentId, doc.scan_id, body, keys.privateKey),
      body,
    });
    expect(uploaded.status, uploaded.text).toBe(201);
  }

  /** The rows of the page's table with this id, as cell texts. */
  const rowsOf = (html: string, tableId: string | null) => {
    const table = tableId
      ? new RegExp(`<table class="list" id="${tableId}">([\\s\\S]*?)</table>`).exec(html)?.[1]
      : /<h2>Registered scanners<\/h2>[\s\S]*?<table class="list">([\s\S]*?)<\/table>/.exec(html)?.[1];
    return [...(table ?? "").matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
      .filter(([row]) => row.includes("<td"))
      .map(([row]) =>
        [...row.matchAll(/<td>([\s\S]*?)<\/td>/g)].map(([, cell]) => cell!.replace(/<[^>]+>/g, "").trim()),
      );
  };

  it("one row for the installed scanner, a group per machine for one-shot runs; expired runs are not active", async () => {
    // Three hours ago: the installed scanner, and a CI script's three one-shot runs on `vm`.
    offsetMs = -3 * 3_600_000;
    await enrolAndUpload("frontdesk-01", false);
    for (let i = 0; i < 3; i++) await enrolAndUpload("vm", true);
    // Now: two runs on another CI machine, which may still upload.
    offsetMs = 0;
    for (let i = 0; i < 2; i++) await enrolAndUpload("ci-runner-2", true);

    const { browser } = await invitedAndSignedIn(t, owner.accountId, "it@sunrise.example", "manager");
    const page = (await browser.get(`/portal/practices/${NPI}/scanner`)).text;
    expect(rowsOf(page, null).map((r) => [r[0], r[5]])).toEqual([["frontdesk-01", "active"]]);
    const groups = rowsOf(page, "one-shot-runs");
    // Computer, platform, runs, active (latest group first); then last run, last upload, version.
    expect(groups.map((r) => r.slice(0, 4))).toEqual([
      ["ci-runner-2 one-shot", "linux", "2", "2"],
      ["vm one-shot", "linux", "3", "none (expired)"],
    ]);
    expect(groups.map((r) => r[6])).toEqual(["0.1.0", "0.1.0"]);
  });
});

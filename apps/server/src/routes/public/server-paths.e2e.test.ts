import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BreachCheckSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicFeedSource } from "../../services/intel/public-feed-source.js";
import { addPractice } from "../../services/practices.js";
import { accountWithKey } from "../../test-support/fixtures.js";
import { runHcsServer } from "../../test-support/hcs-server-cli.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

// An operator imports the public feeds from files kept somewhere on the server (`hcs-server data import --file`).
// Before, /readyz and every hipaa.breach answer carried that file's full path — the server's user names, mounts and
// layout — to anyone who asked. They carry the file's name; the operator's `data status` keeps the whole path.

const HEADER =
  "Name of Covered Entity,State,Covered Entity Type,Individuals Affected,Breach Submission Date,Type of Breach,Location of Breached Information,Business Associate Present,Web Description";
const BREACHES = `${HEADER}\r\n"Sunrise Family Practice, PLLC",OR,Healthcare Provider,2150,10/23/2026,Hacking/IT Incident,Email,No,"Invented test record."\r\n`;
const KEV = JSON.stringify({
  title: "CISA Catalog of Known Exploited Vulnerabilities",
  catalogVersion: "2026.11.20",
  dateReleased: "2026-11-20T12:00:00.000Z",
  count: 1,
  vulnerabilities: [
    {
      cveID: "CVE-2099-1001",
      vendorProject: "F5",
      product: "NGINX",
      vulnerabilityName: "Invented test vulnerability",
      dateAdded: "2026-10-01",
      shortDescription: "nginx before 1.25.4 contains an invented flaw.",
      requiredAction: "Apply updates per vendor instructions.",
      dueDate: "2026-10-22",
      knownRansomwareCampaignUse: "Unknown",
      notes: "Invented for a test.",
      cwes: ["CWE-787"],
    },
  ],
});

let t: TestServer;
let work: string;
let feedDir: string;
let owner: Awaited<ReturnType<typeof accountWithKey>>;

beforeAll(async () => {
  t = await startTestServer();
  work = mkdtempSync(join(tmpdir(), "hcs-paths-"));
  feedDir = join(work, "home", "operator", "private-feeds");
  mkdirSync(feedDir, { recursive: true });
  writeFileSync(join(feedDir, "breach_report.csv"), BREACHES);
  writeFileSync(join(feedDir, "kev.json"), KEV);
  for (const [feed, file] of [
    ["hhs-breaches", "breach_report.csv"],
    ["kev", "kev.json"],
  ] as const) {
    const r = await runHcsServer(t.dataDir, ["data", "import", feed, "--file", join(feedDir, file)]);
    expect(r.code, r.stderr).toBe(0);
  }
  owner = await accountWithKey(t.server.deps, { credits: 1000 });
  await addPractice(t.server.deps, {
    npi: "1234567893",
    name: "Sunrise Family Practice",
    domain: "sunrise-clinic.example",
    state: "OR",
    accountId: owner.accountId,
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

describe("the server's answers never show its filesystem paths", () => {
  it("/readyz names each imported feed's file, not where it lies", async () => {
    const ready = await t.request("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.text).not.toContain(work);
    expect(ready.text).not.toContain("private-feeds");
    const sources = (ready.json.details.feeds as { feed: string; source: string | null }[]).map((f) => [
      f.feed,
      f.source,
    ]);
    expect(sources).toEqual([
      ["hhs_breaches", "breach_report.csv"],
      ["kev", "kev.json"],
      ["eol", null],
    ]);
  });

  it("a breach check's dataset names the file, over REST and JSON-RPC", async () => {
    const rest = await t.request("/v1/a2a/breach/1234567893", { headers: { "X-API-Key": owner.apiKey } });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.text).not.toContain(work);
    const body = BreachCheckSchema.parse(rest.json);
    expect(body.matches).toHaveLength(1);
    expect(body.dataset.source).toBe("breach_report.csv");
    const rpc = await t.request("/api/a2a", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": owner.apiKey },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hipaa.breach", params: { name: "Sunrise", state: "OR" } }),
    });
    expect(rpc.text).not.toContain(work);
    expect(rpc.json.result.dataset.source).toBe("breach_report.csv");
  });

  it("the operator's own data status still shows the whole path", async () => {
    const status = await runHcsServer(t.dataDir, ["--json", "data", "status"]);
    expect(status.code, status.stderr).toBe(0);
    const rows = JSON.parse(status.stdout) as { feed: string; source: string | null }[];
    expect(rows.find((r) => r.feed === "kev")?.source).toBe(join(feedDir, "kev.json"));
  });

  it("a URL source keeps scheme, host and path, never credentials, query or fragment", () => {
    expect(publicFeedSource("https://user:pw@feeds.example:8443/kev.json?token=s3cret#x")).toBe(
      "https://feeds.example:8443/kev.json",
    );
    expect(publicFeedSource("C:\\feeds\\hhs\\breach_report.csv")).toBe("breach_report.csv");
    expect(publicFeedSource("breach_report.csv")).toBe("breach_report.csv");
  });
});

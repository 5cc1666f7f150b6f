import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpRequestTo } from "../lab/https-client.js";
import { totpCodeAt } from "../portal/totp.js";
import { documentedCommand, REPO_ROOT, repoDoc } from "../test-support/doc-commands.js";
import { type DocumentedProcess, personEnv, runDocumentedCommand } from "../test-support/documented-process.js";
import { PortalClient } from "../test-support/portal-client.js";
import { PORTAL_TEST_PASSWORD } from "../test-support/portal-sign-in.js";
import { withRepoBuildLock } from "../test-support/repo-build-lock.js";

// The practice manager's journey through the demo, as README says it: `npm run demo -- --keep-running` (taken from
// README), then the portal link it prints, opened as a browser would — accept the invitation, set a password, enrol
// TOTP — and every portal page reachable from the dashboard by its links. Before, each of them answered 500 ("React
// is not defined": the demo ran the server's JSX under the root tsconfig), and the demo dropped the server's log.
// Then Enter stops the demo, which leaves only its log, where it said.

const README = repoDoc("README.md");
const MAX_PAGES = 80;

let demo: DocumentedProcess;
let link: string;
let ca: string;
let logFile: string;

beforeAll(async () => {
  const command = documentedCommand(README, "npm run demo -- ");
  expect(command).toBe("npm run demo -- --keep-running");
  demo = runDocumentedCommand(command, REPO_ROOT, personEnv());
  // The demo builds first: no other test may build the same dist/ meanwhile.
  await withRepoBuildLock(() => demo.waitFor(/starting the sample practices/, 600_000));
  logFile = (await demo.waitFor(/the server logs to (\S+)/, 30_000))[1]!;
  await demo.waitFor(/press Enter to stop the demo/, 240_000);
  const out = demo.output().stdout;
  link = /sign in as owner@demo-health\.example: open (\S+)/.exec(out)![1]!;
  ca = readFileSync(/the browser must trust (\S+)/.exec(out)![1]!, "utf8");
}, 900_000);
afterAll(() => demo?.stop());

describe("the demo's customer portal, as README says", () => {
  let visited: Map<string, number>;

  it("the printed link leads to the invitation; accepted, with TOTP enrolled, every page linked from the dashboard answers 200", async () => {
    const base = new URL(link).origin;
    const browser = new PortalClient({ request: (path, o) => httpRequestTo(`${base}${path}`, { ca, ...o }) });
    const invite = await browser.get(link.slice(base.length));
    expect(invite.status, invite.text).toBe(200);
    const token = new URL(link).searchParams.get("token")!;
    const accepted = await browser.post("/portal/invite", {
      token,
      password: PORTAL_TEST_PASSWORD,
      confirm: PORTAL_TEST_PASSWORD,
    });
    expect([accepted.status, accepted.headers.location]).toEqual([303, "/portal/mfa/enrol"]);
    const enrol = await browser.get("/portal/mfa/enrol");
    expect(enrol.status).toBe(200);
    const secret = /<code class="secret">([A-Z2-7]+)<\/code>/.exec(enrol.text)![1]!;
    const enrolled = await browser.post("/portal/mfa/enrol", { code: totpCodeAt(secret, new Date()) });
    expect(enrolled.status).toBe(200);

    // Every page the portal links to, breadth first from the dashboard, as someone clicking through would.
    visited = new Map();
    const queue = ["/portal"];
    while (queue.length > 0 && visited.size < MAX_PAGES) {
      const path = queue.shift()!;
      if (visited.has(path)) continue;
      const page = await browser.get(path);
      visited.set(path, page.status);
      // A page that sends on elsewhere in the portal (the dashboard to the account's first practice) is followed; a
      // redirect to sign-in would mean the session was lost, and counts as a failure.
      const location = page.headers.location;
      if (page.status === 303 && typeof location === "string" && !location.startsWith("/portal/sign-in")) {
        visited.set(path, 200);
        if (!visited.has(location) && !queue.includes(location)) queue.push(location);
        continue;
      }
      const html = String(page.headers["content-type"]).startsWith("text/html") ? page.text : "";
      for (const [, href] of html.matchAll(/<a [^>]*href="(\/portal[^"#]*)"/g)) {
        const next = href!.replaceAll("&amp;", "&");
        if (!visited.has(next) && !queue.includes(next)) queue.push(next);
      }
    }
    const failed = [...visited].filter(([, status]) => status !== 200);
    expect(failed, `pages that did not answer 200: ${JSON.stringify(failed)}`).toEqual([]);
    // The dashboard, the demo practice's pages and the settings were among them.
    const paths = [...visited.keys()];
    expect(paths).toContain("/portal");
    expect(paths.some((p) => /^\/portal\/practices\/\d{10}\/findings/.test(p))).toBe(true);
    expect(paths.some((p) => p.startsWith("/portal/settings/"))).toBe(true);
    expect(paths.length).toBeGreaterThanOrEqual(10);
  }, 180_000);

  it("Enter stops the demo, which says where the server's log is; the log, owner-only, is all it leaves and has the portal's requests", async () => {
    demo.child.stdin!.write("\n");
    expect(await demo.exited).toBe(0);
    const out = demo.output().stdout;
    expect(out).toMatch(/the server's log \(\d+ JSON lines\) is kept at (\S+)/);
    expect(/is kept at (\S+)/.exec(out)![1]).toBe(logFile);
    expect(statSync(logFile).mode & 0o777).toBe(0o600);
    expect(readdirSync(dirname(logFile))).toEqual(["server.log"]);
    const lines = readFileSync(logFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string; path?: string; status?: number });
    const portal = lines.filter((l) => l.msg === "request" && l.path?.startsWith("/portal"));
    expect(portal.length).toBeGreaterThanOrEqual(visited.size);
    expect(portal.filter((l) => (l.status ?? 0) >= 500)).toEqual([]);
    // Paths, never the invitation's token (it is in the query) or the password.
    const text = readFileSync(logFile, "utf8");
    expect(text).not.toContain(new URL(link).searchParams.get("token")!);
    expect(text).not.toContain(PORTAL_TEST_PASSWORD);
  }, 60_000);
});

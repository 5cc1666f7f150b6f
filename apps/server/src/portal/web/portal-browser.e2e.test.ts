import { join } from "node:path";
import { JobSchema } from "@hcs/protocol";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, startLab } from "../../lab/lab.js";
import { artifactDir, chromiumAvailable, launchChromium, seriousAxeViolations } from "../../test-support/browser.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { runHcsServer } from "../../test-support/hcs-server-cli.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";
import { totpCodeAt } from "../totp.js";
import { inviteUser } from "../users.js";

const PASSWORD = "Sunrise clinic passphrase 2026";
const EMAIL = "manager@demo-health.example";
const shots = artifactDir("portal");

/** Records the page's CSP refusals and script errors: a portal page must produce none. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

/** The text of the first match, once it is there (Playwright's auto-waiting, without its test runner). */
async function textOf(locator: Locator): Promise<string> {
  await locator.first().waitFor();
  return (await locator.first().innerText()).trim();
}

async function visible(locator: Locator): Promise<boolean> {
  await locator.first().waitFor({ state: "visible" });
  return locator.first().isVisible();
}

async function checkPage(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  expect(await seriousAxeViolations(page), `axe on ${name}`).toEqual([]);
}

/** Runs the full external scan of a practice through the API and waits for the job to finish. */
async function scanned(lab: Lab, npi: string): Promise<void> {
  const res = await lab.request("/v1/a2a/scans/dispatch", { npi, scan_type: "full" });
  expect(res.status).toBe(202);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const job = JobSchema.parse((await lab.request(res.json.poll_url)).json);
    if (job.status === "completed") return;
    if (job.status === "failed") throw new Error(`scan failed: ${job.error?.code}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("scan did not finish in 90 s");
}

const hasChromium = chromiumAvailable();

describe.skipIf(!hasChromium)("the portal in Chromium", () => {
  let lab: Lab;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let npi: string;
  let secret = "";

  beforeAll(async () => {
    lab = await startLab({ loopbackPrefix: "127.0.57", workerConcurrency: 2 });
    // The sample practice with the most problems: the dashboard and findings have something to show.
    npi = [...lab.samples.practices].sort((a, b) => b.expected.findings.length - a.expected.findings.length)[0]!.npi;
    // Two scans: the score trend has two points.
    await scanned(lab, npi);
    await scanned(lab, npi);
    browser = await launchChromium();
    // The lab's CA is not in Chromium's store; TLS itself is verified by every API test.
    context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    problems = watchConsole(page);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await lab?.stop();
  });

  it("invite (operator CLI) → set password → enrol TOTP → sign in → dashboard → finding → policies → SRA → deploy token", async () => {
    const invited = await runHcsServer(
      lab.dataDir,
      ["--json", "users", "invite", "--account", lab.accountId, "--email", EMAIL, "--role", "owner"],
      { HCS_PUBLIC_URL: lab.server.url },
    );
    expect(invited.code, invited.stderr).toBe(0);
    const link = JSON.parse(invited.stdout).link as string;
    expect(link).toMatch(/\/portal\/invite\?token=/);

    await page.goto(link);
    await checkPage(page, "01-invite");
    await page.fill("#password", PASSWORD);
    await page.fill("#confirm", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL("**/portal/mfa/enrol");
    secret = (await page.textContent("code.secret"))!.trim();
    expect(await page.getAttribute("img.qr", "src")).toMatch(/^data:image\/png;base64,/);
    await checkPage(page, "02-enrol-totp");
    await page.fill("#code", totpCodeAt(secret, new Date()));
    await page.click("button[type=submit]");
    expect(await textOf(page.locator("h1"))).toBe("Save your recovery codes");
    expect(await page.locator(".codes li").count()).toBe(10);
    await checkPage(page, "03-recovery-codes");

    // Sign out and in again with the password and a fresh code.
    await page.click("text=Continue to the portal");
    await page.click("text=Sign out");
    await page.waitForURL("**/portal/sign-in");
    await checkPage(page, "04-sign-in");
    await page.fill("#email", EMAIL);
    await page.fill("#password", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL("**/portal/sign-in/code");
    await checkPage(page, "05-second-factor");
    await page.fill("#code", totpCodeAt(secret, new Date(Date.now() + 30_000)));
    await page.click("button[type=submit]");
    await page.waitForURL("**/portal/practices/*");

    // The dashboard of the scanned practice, chosen in the practice list.
    await page.click(`nav a[href="/portal/practices/${npi}"]`);
    await page.waitForURL(`**/portal/practices/${npi}`);
    const grade = (await lab.request(`/v1/a2a/grade/${npi}`)).json;
    expect(await textOf(page.locator(".grade"))).toContain(grade.grade);
    expect(await textOf(page.locator(".score strong"))).toBe(String(grade.compliance_score));
    expect(await page.locator("svg.trend circle").count()).toBe(2);
    expect(await page.locator("table.bars tbody tr").count()).toBe(Object.keys(grade.categories).length);
    await checkPage(page, "06-dashboard");

    // Findings: filter, then open one (a <details>, no script needed) and see its evidence and fix.
    await page.click("nav >> text=Findings");
    await page.waitForURL(`**/portal/practices/${npi}/findings`);
    const all = await page.locator("details.finding").count();
    expect(all).toBeGreaterThan(0);
    await page.selectOption("select[name=source]", "external");
    await page.click("form.filters button");
    await page.waitForURL(/source=external/);
    const first = page.locator("details.finding").first();
    await first.locator("summary").click();
    expect(await visible(first.locator("text=How to fix"))).toBe(true);
    expect(await visible(first.locator("text=HIPAA controls"))).toBe(true);
    await checkPage(page, "07-findings-open");

    // Records: incidents, training, BAAs and the 24 policies.
    await page.click("nav >> text=Records");
    await page.waitForURL(`**/portal/practices/${npi}/records`);
    expect(await page.locator("h2", { hasText: "Policies (" }).count()).toBe(1);
    await checkPage(page, "08-records");

    // Generate policies: all 24 at the API's price, through the operation's settlement; then the new versions.
    await page.click("text=Generate all 24 policies");
    await page.waitForURL(`**/portal/practices/${npi}/records?generated=24#policies`);
    expect(await textOf(page.locator(".notice-ok"))).toContain("24 policies were generated");
    expect(await textOf(page.locator("#policies h2"))).toBe("Policies (24 of 24 current)");
    expect(await page.locator("text=Regenerate policy 3").count()).toBe(1);
    await checkPage(page, "08g-policies-generated");

    // The risk assessment: the questionnaire pre-filled from the scans, run, and its result.
    await page.click("nav >> text=Risk assessment");
    await page.waitForURL(`**/portal/practices/${npi}/risk-assessment`);
    expect(await page.locator("text=Pre-filled from").count()).toBeGreaterThan(0);
    await checkPage(page, "08h-risk-assessment");
    await page.check('input[name="answer:basics.security_official"][value="yes"]');
    await page.click("text=Run the risk assessment");
    await page.waitForURL(`**/portal/practices/${npi}/risk-assessment/result?ran=1`);
    expect(await textOf(page.locator("h2").first())).toContain("Overall risk");
    await checkPage(page, "08i-risk-assessment-result");

    // Reports: the two full scans, newest first; the HTML report opens under /portal with its own CSP intact
    // (a CSP refusal of its inline stylesheet would show on the console, which must stay clean).
    await page.click("nav >> text=Reports");
    await page.waitForURL(`**/portal/practices/${npi}/reports`);
    expect(await page.locator("text=View HTML").count()).toBe(2);
    expect(await page.locator("text=Download PDF").count()).toBe(2);
    await checkPage(page, "08c-reports");
    await page.locator("text=View HTML").first().click();
    await page.waitForURL(/\/reports\/[0-9a-f-]+\?format=html$/);
    expect(await textOf(page.locator("h1").first())).toContain("compliance report");
    await page.screenshot({ path: join(shots, "08d-report-html.png") });
    await page.goBack();

    // Audit: the account's events; one opened shows its proof state and how to verify it.
    await page.click("nav >> text=Audit log");
    await page.waitForURL("**/portal/audit");
    await checkPage(page, "08e-audit");
    await page.locator("table.list a").first().click();
    await page.waitForURL(/\/portal\/audit\/events\/\d+$/);
    expect(await page.locator("text=Inclusion proof").count()).toBe(1);
    await checkPage(page, "08f-audit-proof");
    // Account pages have no practice in view: back to the scanned practice before its scanner.
    await page.click(`nav a[href="/portal/practices/${npi}"]`);
    await page.waitForURL(`**/portal/practices/${npi}`);

    // Scanner: create a deploy token; it and the commands are shown once.
    await page.click("nav >> text=Scanner");
    await checkPage(page, "08b-scanner");
    await page.click("text=Create deploy token");
    expect(await textOf(page.locator("#deploy-token"))).toContain(".");
    expect(await textOf(page.locator("#cmd-register"))).toContain("hcs-scanner register");
    expect(await visible(page.locator("button.copy").first())).toBe(true); // the script's enhancement ran
    await checkPage(page, "09-deploy-token");
    const tokens = await lab.server.deps.store.db
      .selectFrom("deploy_tokens")
      .select("created_by_key_id")
      .where("npi", "=", npi)
      .execute();
    expect(tokens.some((t) => t.created_by_key_id === null)).toBe(true);

    // Settings: API access (a key shown once), people.
    await page.click("nav >> text=Settings · API access");
    await page.fill("input[name=label]", "EHR integration");
    await page.click("text=Create key");
    expect(await textOf(page.locator("#new-key"))).toContain("hcs_live_");
    await checkPage(page, "10-api-access");
    await page.click("nav >> text=Settings · People");
    await checkPage(page, "11-people");

    expect(problems).toEqual([]);
  }, 120_000);

  it("records: an incident recorded with its clock, the roster uploaded as a file, a business associate added", async () => {
    await page.goto(`${lab.server.url}/portal/practices/${npi}/records`);
    await checkPage(page, "13-records");
    await page.click("text=Record an incident");
    await page.waitForURL("**/incidents/new");
    await checkPage(page, "14-incident-new");
    await page.fill("input[name=title]", "Front desk laptop stolen");
    await page.selectOption("select[name=category]", "theft");
    await page.check("input[name=phi_involved][value=yes]");
    await page.fill("input[name=individuals_affected]", "3");
    await page.check("input[name=data_type_clinical]");
    await page.selectOption("select[name=recipient]", "unknown");
    await page.selectOption("select[name=acquired_or_viewed]", "unknown");
    await page.selectOption("select[name=mitigation]", "none");
    await page.click("text=Record incident");
    await page.waitForURL(/\/incidents\/inc_[0-9a-f]{16}\?saved=1$/);
    expect(await textOf(page.locator("main strong"))).toBe("Breach");
    await checkPage(page, "15-incident-clock");

    await page.goto(`${lab.server.url}/portal/practices/${npi}/records`);
    await page.click("text=Upload the training roster");
    await page.waitForURL("**/training/roster");
    await page.setInputFiles("#roster", {
      name: "roster.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("member_id,name,role,hired_on\ne1,Avery Front,Front desk,2024-01-10\n"),
    });
    await page.click("button:has-text('Upload roster')");
    expect(await textOf(page.locator(".notice-ok"))).toContain("Stored 1 person and 0 completions from 1 row");
    await checkPage(page, "16-training-roster");

    await page.goto(`${lab.server.url}/portal/practices/${npi}/records`);
    await page.click("text=Add a business associate");
    await page.fill("input[name=name]", "Acme Billing");
    await page.selectOption("select[name=baa_status]", "signed");
    await page.fill("input[name=signed_on]", "2026-01-15");
    await page.click("button:has-text('Add business associate')");
    await page.waitForURL("**/business-associates/acme-billing?saved=1");
    await checkPage(page, "17-business-associate");
    expect(problems).toEqual([]);
  }, 60_000);

  it("refuses a form whose CSRF token was removed", async () => {
    await page.goto(`${lab.server.url}/portal/practices/${npi}/scanner`);
    const before = await lab.server.deps.store.db.selectFrom("deploy_tokens").select("id").execute();
    await page.evaluate(() => {
      for (const field of document.querySelectorAll("input[name=_csrf]")) field.remove();
    });
    const [response] = await Promise.all([
      page.waitForResponse(/deploy-token/),
      page.click("text=Create deploy token"),
    ]);
    expect(response.status()).toBe(403);
    expect(await textOf(page.locator("body"))).toContain("did not come from this site");
    const after = await lab.server.deps.store.db.selectFrom("deploy_tokens").select("id").execute();
    expect(after).toHaveLength(before.length);
  });
});

describe.skipIf(!hasChromium)("inactivity log-off in Chromium", () => {
  let t: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestServer({ env: { HCS_PORTAL_IDLE_MINUTES: "0.05" } }); // 3 seconds
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("a page loaded after the idle time shows the sign-in page and says why", async () => {
    const { accountId } = await accountWithKey(t.server.deps, { plan: "free" });
    await gradedPractice(t.server.deps, accountId, "1234567893");
    const invitation = await inviteUser(t.server.deps, {
      accountId,
      email: "viewer@clinic.example",
      role: "viewer",
      invitedBy: null,
    });
    const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
    await page.goto(`${t.url}/portal/invite?token=${invitation.token}`);
    await page.fill("#password", PASSWORD);
    await page.fill("#confirm", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL("**/portal/practices/1234567893");
    await new Promise((r) => setTimeout(r, 3_500));
    await page.reload();
    await page.waitForURL("**/portal/sign-in?idle=1");
    expect(await textOf(page.locator(".notice"))).toContain("signed out after");
    await page.screenshot({ path: join(shots, "12-idle-signed-out.png") });
  });
});

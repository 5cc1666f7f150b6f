import { AuditProofBundleSchema, verifyAuditProof } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckpoint } from "../../audit/checkpoints.js";
import { nodeEd25519Verify } from "../../audit/log-key.js";
import { sequenceAuditLog } from "../../audit/sequencer.js";
import { evaluateSecurityHeaders } from "../../external-scan/site/security-headers-check.js";
import { webhookSecretOf } from "../../services/accounts.js";
import { accountWithKey, completedJobRow, gradedPractice } from "../../test-support/fixtures.js";
import { invitedAndSignedIn } from "../../test-support/portal-sign-in.js";
import { RIVERSIDE } from "../../test-support/report-sources.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

/*
 * The portal's Reports and Audit pages over real HTTPS, signed in through the pages: the reports of a practice's
 * completed full scans (a captured run's stored result) as HTML and PDF, and the account's audit events with their
 * proofs, pending until a signed checkpoint covers them, then the same bundle the API returns.
 */

const NPI = RIVERSIDE.job.npi;
const OTHER_NPI = "1679576722";

const headersOf = (h: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(", ") : (v ?? "")]));

let t: TestServer;
let owner: Awaited<ReturnType<typeof accountWithKey>>;
let stranger: Awaited<ReturnType<typeof accountWithKey>>;

beforeAll(async () => {
  t = await startTestServer();
  const deps = t.server.deps;
  owner = await accountWithKey(deps, { plan: "professional", name: "Riverside Ortho" });
  stranger = await accountWithKey(deps, { plan: "professional" });
  await gradedPractice(deps, owner.accountId, NPI);
  await gradedPractice(deps, stranger.accountId, OTHER_NPI);
});
afterAll(() => t.close());

describe("Reports page", () => {
  let older: string;
  let newer: string;
  let strangersJob: string;

  beforeAll(async () => {
    const deps = t.server.deps;
    const result = RIVERSIDE.job.result;
    const day = 24 * 3600_000;
    older = await completedJobRow(deps, owner.accountId, NPI, {
      result,
      completedAt: new Date(Date.now() - 2 * day).toISOString(),
    });
    newer = await completedJobRow(deps, owner.accountId, NPI, {
      result: { ...result, grade: "D", compliance_score: 64 },
      completedAt: new Date(Date.now() - day).toISOString(),
    });
    // A completed job without a stored result (as before reports) is not listed: it has no report.
    await completedJobRow(deps, owner.accountId, NPI);
    strangersJob = await completedJobRow(deps, stranger.accountId, OTHER_NPI, {
      result: { ...result, npi: OTHER_NPI },
    });
  });

  it("lists the practice's completed full scans newest first with grade, linking HTML and PDF under /portal", async () => {
    const { browser } = await invitedAndSignedIn(t, owner.accountId, "viewer@riverside.example", "viewer");
    const page = await browser.get(`/portal/practices/${NPI}/reports`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/portal/practices/${NPI}/reports"`); // in the navigation
    const htmlLinks = [...page.text.matchAll(/href="\/portal\/practices\/\d+\/reports\/([0-9a-f-]+)\?format=html"/g)];
    expect(htmlLinks.map((m) => m[1])).toEqual([newer, older]);
    expect(page.text).toContain(`/reports/${newer}?format=pdf`);
    expect(page.text).toContain("D (64)");
    expect(page.text).toContain("F (59)");
    expect(page.text).not.toContain(strangersJob);

    // HTML: the report as the API renders it, with the report's own CSP (its hashed stylesheet), not the portal's.
    const html = await browser.get(`/portal/practices/${NPI}/reports/${older}?format=html`);
    expect(html.status).toBe(200);
    expect(html.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(html.text).toContain("Grade F, 59 out of 100");
    const api = await t.request(`/v1/a2a/reports/${older}`, { headers: { "X-API-Key": owner.apiKey } });
    expect(api.status).toBe(200);
    const csp = headersOf(html.headers)["content-security-policy"]!;
    expect(csp).toBe(headersOf(api.headers)["content-security-policy"]);
    expect(csp).toMatch(/style-src 'sha256-/);
    expect(csp).not.toContain("unsafe-inline");
    expect(html.headers["x-frame-options"]).toBe("DENY");
    expect(html.headers["content-disposition"]).toBeUndefined();
    expect(
      evaluateSecurityHeaders(
        "127.0.0.1",
        `${t.url}/portal/practices/${NPI}/reports`,
        headersOf(html.headers),
        html.text,
      ),
    ).toEqual([]);

    // PDF: a download, named after the practice and the scan date.
    const pdf = await browser.get(`/portal/practices/${NPI}/reports/${newer}?format=pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toMatch(
      new RegExp(`^attachment; filename="hcs-report-${NPI}-\\d{4}-\\d{2}-\\d{2}-${newer.slice(0, 8)}\\.pdf"$`),
    );
    expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.bytes.length).toBeGreaterThan(10_000);
  });

  it("answers 404 for another account's job, an unknown one and another practice's address; 400 for a bad format", async () => {
    const { browser } = await invitedAndSignedIn(t, owner.accountId, "manager@riverside.example", "manager");
    expect((await browser.get(`/portal/practices/${NPI}/reports/${strangersJob}?format=html`)).status).toBe(404);
    expect((await browser.get(`/portal/practices/${NPI}/reports/${strangersJob}?format=pdf`)).status).toBe(404);
    expect((await browser.get(`/portal/practices/${OTHER_NPI}/reports/${strangersJob}`)).status).toBe(404);
    expect((await browser.get(`/portal/practices/${OTHER_NPI}/reports`)).status).toBe(404);
    expect((await browser.get(`/portal/practices/${NPI}/reports/00000000-0000-4000-8000-000000000000`)).status).toBe(
      404,
    );
    expect((await browser.get(`/portal/practices/${NPI}/reports/not-a-job`)).status).toBe(404);
    const bad = await browser.get(`/portal/practices/${NPI}/reports/${older}?format=docx`);
    expect(bad.status).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/text\/html/);
    // Without a session, the sign-in page.
    const anonymous = await t.request(`/portal/practices/${NPI}/reports/${older}?format=pdf`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.location).toBe("/portal/sign-in");
  });
});

describe("Audit page", () => {
  it("lists the account's own events only; a proof is pending until a checkpoint, then the API's bundle", async () => {
    const deps = t.server.deps;
    const { browser } = await invitedAndSignedIn(t, owner.accountId, "owner@riverside.example", "owner");
    // The stranger's account makes an event of its own.
    expect((await t.request(`/v1/a2a/grade/${OTHER_NPI}`, { headers: { "X-API-Key": stranger.apiKey } })).status).toBe(
      200,
    );
    await sequenceAuditLog(deps.store);
    const idsOf = (accountId: string) =>
      deps.store.db
        .selectFrom("audit_events")
        .select(["id", "action"])
        .where("actor_account_id", "=", accountId)
        .orderBy("id", "desc")
        .execute();
    const mine = await idsOf(owner.accountId);
    const theirs = await idsOf(stranger.accountId);
    const enrol = mine.find((e) => e.action === "portal.mfa.enrol")!;
    expect(enrol).toBeDefined();
    expect(theirs.length).toBeGreaterThan(0);

    const list = await browser.get("/portal/audit");
    expect(list.status).toBe(200);
    const listed = [...list.text.matchAll(/href="\/portal\/audit\/events\/(\d+)"/g)].map((m) => Number(m[1]));
    expect(listed).toEqual(expect.arrayContaining(mine.map((e) => Number(e.id))));
    expect(listed).toEqual([...listed].sort((a, b) => b - a)); // newest first
    for (const e of theirs) expect(listed).not.toContain(Number(e.id));
    expect(list.text).toContain("portal.mfa.enrol");
    expect(list.text).toContain('href="/portal/audit" aria-current="page"');

    // Before any checkpoint: the event and its leaf, the proof pending, no bundle to download.
    const pending = await browser.get(`/portal/audit/events/${enrol.id}`);
    expect(pending.status).toBe(200);
    expect(pending.text).toContain("portal.mfa.enrol");
    expect(pending.text).toContain("Pending.");
    expect(pending.text).not.toContain("verify-proof");
    expect((await browser.get(`/portal/audit/events/${enrol.id}/proof.json`)).status).toBe(404);

    await sequenceAuditLog(deps.store);
    const checkpoint = await createCheckpoint(deps.store, deps.auditLogKey!, new Date());
    expect(checkpoint).not.toBeNull();
    const proved = await browser.get(`/portal/audit/events/${enrol.id}`);
    expect(proved.status).toBe(200);
    expect(proved.text).toContain(`Proved</strong> to the signed checkpoint of size ${checkpoint!.size}`);
    expect(proved.text).toContain(checkpoint!.rootHash);
    expect(proved.text).toContain("not anchored");
    expect(proved.text).toContain(`hcs-server audit verify-proof hcs-audit-proof-${enrol.id}.json`);

    const file = await browser.get(`/portal/audit/events/${enrol.id}/proof.json`);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(file.headers["content-disposition"]).toBe(`attachment; filename="hcs-audit-proof-${enrol.id}.json"`);
    const api = await t.request(`/v1/a2a/audit/events/${enrol.id}/proof`, { headers: { "X-API-Key": owner.apiKey } });
    expect(api.status).toBe(200);
    expect(file.json).toEqual(api.json);
    const bundle = AuditProofBundleSchema.parse(file.json);
    expect(bundle.event.record).toMatchObject({
      operation: "portal.mfa.enrol",
      actor: { account_id: owner.accountId },
    });
    const keyText = (await t.request("/.well-known/hcs-audit-log-key")).text;
    expect(verifyAuditProof(bundle, { verify: nodeEd25519Verify, trustedKey: keyText })).toMatchObject({
      ok: true,
      keyTrusted: true,
    });

    // Another account's event, and ids that are no event, are not found (existence not disclosed).
    const foreign = Number(theirs[0]!.id);
    expect((await browser.get(`/portal/audit/events/${foreign}`)).status).toBe(404);
    expect((await browser.get(`/portal/audit/events/${foreign}/proof.json`)).status).toBe(404);
    expect((await browser.get("/portal/audit/events/0")).status).toBe(404);
    expect((await browser.get("/portal/audit/events/99999999")).status).toBe(404);
  });
});

describe("Settings → API access: the webhook secret", () => {
  it("shows it is set; an owner rotates it (shown once, audited, CSRF-bound); a manager cannot", async () => {
    const deps = t.server.deps;
    const before = await webhookSecretOf(deps, owner.accountId);
    expect(before).toBe(owner.webhookSecret);

    const { browser: manager } = await invitedAndSignedIn(t, owner.accountId, "mgr2@riverside.example", "manager");
    const managerPage = await manager.get("/portal/settings/api");
    expect(managerPage.text).toContain("A secret is set");
    expect(managerPage.text).not.toContain("Rotate webhook secret");
    expect(managerPage.text).not.toContain(before);
    expect((await manager.post("/portal/settings/api/webhook-secret", {})).status).toBe(403);
    expect(await webhookSecretOf(deps, owner.accountId)).toBe(before);

    const { browser } = await invitedAndSignedIn(t, owner.accountId, "owner2@riverside.example", "owner");
    const page = await browser.get("/portal/settings/api");
    expect(page.text).toContain("Rotate webhook secret");
    expect(page.text).not.toContain(before);
    expect((await browser.post("/portal/settings/api/webhook-secret", {}, false)).status).toBe(403);
    expect(await webhookSecretOf(deps, owner.accountId)).toBe(before);

    const rotated = await browser.post("/portal/settings/api/webhook-secret", {});
    expect(rotated.status).toBe(201);
    expect(rotated.headers["cache-control"]).toBe("no-store");
    const shown = /<pre id="new-webhook-secret"><code>(whsec_[A-Za-z0-9_-]+)<\/code>/.exec(rotated.text)?.[1];
    expect(shown).toBeDefined();
    expect(shown).not.toBe(before);
    expect(await webhookSecretOf(deps, owner.accountId)).toBe(shown);
    // Shown once: the page loaded again does not show it.
    expect((await browser.get("/portal/settings/api")).text).not.toContain(shown!);

    const events = await deps.store.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "portal.webhook-secret.rotate")
      .execute();
    expect(events.map((e) => [e.outcome, e.resource, e.transport])).toEqual([
      ["success", `account:${owner.accountId}`, "portal"],
    ]);
    expect(JSON.stringify(events)).not.toContain(shown!);
    expect(t.logs.join("\n")).not.toContain(shown!);
  });
});

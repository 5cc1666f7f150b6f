import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EvidenceReportSchema, JobSchema, ScanDispatchAcceptanceSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../../lab/webhook-receiver.js";
import { type SamplePractices, samplePracticesEnv, startSamplePractices } from "../../sample-practices/index.js";
import { addPractice } from "../../services/practices.js";
import { accountWithKey, addSamplePractices } from "../../test-support/fixtures.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

let samples: SamplePractices;
let receiver: WebhookReceiver;
let t: TestServer;
let tmp: string;
let owner: Awaited<ReturnType<typeof accountWithKey>>;

beforeAll(async () => {
  samples = await startSamplePractices({ loopbackPrefix: "127.0.21" });
  receiver = await startWebhookReceiver();
  tmp = mkdtempSync(join(tmpdir(), "hcs-scans-"));
  t = await startTestServer({
    worker: true,
    env: { ...samplePracticesEnv(samples, tmp, receiver.caPem), HCS_WEBHOOK_RETRY_BASE_MS: "200" },
  });
  owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 5_000 });
  receiver.setSecret(owner.webhookSecret);
  await addSamplePractices(t.server.deps, samples.practices, owner.accountId);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await samples?.stop();
  await receiver?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function pollUntilDone(pollUrl: string, key: string, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request(pollUrl, { headers: { "X-API-Key": key } });
    expect(res.status).toBe(200);
    const job = JobSchema.parse(res.json);
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > end) throw new Error(`job still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("scan dispatch, polling and webhooks against the sample practices", () => {
  it("scans every sample practice: 202, completed jobs with the expected grades and findings, signed webhooks", async () => {
    const accepted = await Promise.all(
      samples.practices.map(async (p) => {
        const res = await t.request("/v1/a2a/scans/dispatch", {
          method: "POST",
          headers: { "X-API-Key": owner.apiKey },
          body: { npi: p.npi, scan_type: "full", callback_url: receiver.url },
        });
        expect(res.status, res.text).toBe(202);
        expect(res.headers.location).toBe(res.json.poll_url);
        return { practice: p, acceptance: ScanDispatchAcceptanceSchema.parse(res.json) };
      }),
    );
    for (const { practice, acceptance } of accepted) {
      const job = await pollUntilDone(acceptance.poll_url, owner.apiKey);
      expect(job.status, JSON.stringify(job.error)).toBe("completed");
      const result = job.result!;
      expect(practice.expected.grades, `${practice.name}: ${result.grade} ${result.compliance_score}`).toContain(
        result.grade,
      );
      const checks = new Set(result.findings.map((f) => f.check_id));
      for (const c of practice.expected.findings) expect(checks.has(c), `${practice.name} should show ${c}`).toBe(true);
      expect(result.coverage.external.status).not.toBe("none");
      expect(result.report.top_findings.length).toBeLessThanOrEqual(5);
      // The grade lookup now shows the same grade.
      const grade = await t.request(`/v1/a2a/grade/${practice.npi}`, { headers: { "X-API-Key": owner.apiKey } });
      expect(grade.json.grade).toBe(result.grade);
    }
    // One signed delivery per job, carrying the full job JSON.
    const end = Date.now() + 10_000;
    while (receiver.received.length < accepted.length && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(receiver.received).toHaveLength(accepted.length);
    for (const d of receiver.received) {
      expect(d.verified).toBe(true);
      expect(d.event).toBe("job.completed");
      const job = JobSchema.parse(JSON.parse(d.body));
      expect(accepted.map((a) => a.acceptance.job_id)).toContain(job.job_id);
      expect(job.result?.grade).toBeDefined();
    }
  }, 90_000);

  it("logs each completed scan: hipaa.evidence lists it under its evidence with the worker's completion event", async () => {
    const p = samples.practices[0]!;
    const res = await t.request(`/v1/a2a/evidence/${p.npi}`, { headers: { "X-API-Key": owner.apiKey } });
    expect(res.status, res.text).toBe(200);
    const records = EvidenceReportSchema.parse(res.json).requirements.flatMap((r) =>
      r.evidence.flatMap((e) => e.records),
    );
    const external = records.filter((r) => r.kind === "external_scan");
    expect(external.length).toBeGreaterThan(0);
    expect(external.every((r) => r.audit.state !== "not_logged")).toBe(true);
    const event = await t.server.deps.store.db
      .selectFrom("audit_events")
      .selectAll()
      .where("id", "=", external[0]!.audit.event_id!)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      action: "completeScan",
      transport: "worker",
      actor_account_id: owner.accountId,
      resource: external[0]!.ref,
      outcome: "success",
    });
  });

  it("estimates the duration from recent jobs once some have completed", async () => {
    const rows = await t.server.deps.store.db
      .selectFrom("jobs")
      .select("duration_ms")
      .where("status", "=", "completed")
      .execute();
    const sorted = rows.map((r) => r.duration_ms!).sort((a, b) => a - b);
    const res = await t.request("/v1/a2a/scans/dispatch", {
      method: "POST",
      headers: { "X-API-Key": owner.apiKey },
      body: { npi: samples.practices[0]!.npi },
    });
    expect(res.status).toBe(202);
    const mid = Math.floor(sorted.length / 2);
    const median = sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
    expect(res.json.estimated_duration_ms).toBe(median);
    await pollUntilDone(res.json.poll_url, owner.apiKey);
  }, 60_000);

  it("keeps retrying a webhook while the receiver is down, then delivers it once", async () => {
    receiver.setDown(true);
    const before = receiver.received.length;
    const res = await t.request("/v1/a2a/scans/dispatch", {
      method: "POST",
      headers: { "X-API-Key": owner.apiKey },
      body: { npi: samples.practices[0]!.npi, callback_url: receiver.url },
    });
    const job = await pollUntilDone(res.json.poll_url, owner.apiKey);
    const deadline = Date.now() + 10_000;
    while (receiver.refused < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(receiver.refused).toBeGreaterThanOrEqual(3);
    receiver.setDown(false);
    while (receiver.received.length === before && Date.now() < deadline + 20_000)
      await new Promise((r) => setTimeout(r, 50));
    const mine = receiver.received.slice(before);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.verified).toBe(true);
    expect(JSON.parse(mine[0]!.body).job_id).toBe(job.job_id);
    // The receiver holds the request before the sender has read its 204 and recorded the delivery: wait for that.
    const readRow = () =>
      t.server.deps.store.db
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("job_id", "=", job.job_id)
        .executeTakeFirstOrThrow();
    let row = await readRow();
    const recorded = Date.now() + 5_000;
    while (row.status !== "delivered" && Date.now() < recorded) {
      await new Promise((r) => setTimeout(r, 20));
      row = await readRow();
    }
    expect(row).toMatchObject({ status: "delivered", last_status_code: 204 });
    expect(row.attempts).toBeGreaterThanOrEqual(4);
    expect(row.id).toBe(mine[0]!.deliveryId);
  }, 60_000);
});

describe("dispatch refuses bad requests with documented errors", () => {
  const dispatch = (body: unknown, key = owner.apiKey, headers: Record<string, string> = {}) =>
    t.request("/v1/a2a/scans/dispatch", { method: "POST", headers: { "X-API-Key": key, ...headers }, body });

  it.each([
    [{ scan_type: "full" }, 400, "invalid_body"],
    [{ npi: "1234567890" }, 400, "invalid_npi"],
    [{ npi: "1234567893", scan_type: "quick" }, 400, "invalid_scan_type"],
    [{ npi: "1234567893", callback_url: "http://127.0.0.1/hook" }, 400, "invalid_callback_url"],
    [{ npi: "1234567893", callback_url: "not a url" }, 400, "invalid_callback_url"],
    [{ npi: "1234567893", extra: true }, 400, "invalid_body"],
    [[1, 2], 400, "invalid_body"],
    [{ npi: "1306849450" }, 404, "npi_not_found"],
  ])("%j → %i %s", async (body, status, code) => {
    const res = await dispatch(body);
    expect([res.status, res.json.error.code]).toEqual([status, code]);
    if (code === "invalid_scan_type") expect(res.json.error.details.allowed).toEqual(["full"]);
    if (code === "invalid_body") expect(Array.isArray(res.json.error.details.issues)).toBe(true);
  });

  it("malformed JSON and non-JSON bodies", async () => {
    expect(
      (
        await t.request("/v1/a2a/scans/dispatch", {
          method: "POST",
          headers: { "X-API-Key": owner.apiKey, "Content-Type": "application/json" },
          body: "{",
        })
      ).json.error.code,
    ).toBe("invalid_json");
    expect(
      (
        await t.request("/v1/a2a/scans/dispatch", {
          method: "POST",
          headers: { "X-API-Key": owner.apiKey, "Content-Type": "text/plain" },
          body: "npi=1",
        })
      ).status,
    ).toBe(415);
  });

  it("another account's practice is forbidden, and its jobs are not readable", async () => {
    const other = await accountWithKey(t.server.deps, { credits: 1000 });
    const res = await dispatch({ npi: samples.practices[0]!.npi }, other.apiKey);
    expect([res.status, res.json.error.code]).toEqual([403, "forbidden"]);
    const mine = await dispatch({ npi: samples.practices[1]!.npi });
    const peek = await t.request(mine.json.poll_url, { headers: { "X-API-Key": other.apiKey } });
    expect([peek.status, peek.json.error.code]).toEqual([404, "job_not_found"]);
    const missing = await t.request("/v1/a2a/jobs/00000000-0000-4000-8000-000000000000", {
      headers: { "X-API-Key": other.apiKey },
    });
    expect(missing.json.error.code).toBe("job_not_found");
    expect(
      (await t.request("/v1/a2a/jobs/not-a-job", { headers: { "X-API-Key": other.apiKey } })).json.error.code,
    ).toBe("job_not_found");
    await pollUntilDone(mine.json.poll_url, owner.apiKey);
  }, 60_000);

  it("402 when the account cannot pay 150 credits; nothing is queued", async () => {
    const poor = await accountWithKey(t.server.deps, { credits: 100 });
    await addPractice(t.server.deps, {
      npi: "1306849450",
      name: "Poor",
      domain: "poor.example",
      accountId: poor.accountId,
    });
    const res = await dispatch({ npi: "1306849450" }, poor.apiKey);
    expect(res.status).toBe(402);
    expect(res.json.error.details).toEqual({ required: 150, balance: 100, contact_email: null });
    const jobs = await t.server.deps.store.db.selectFrom("jobs").select("id").where("npi", "=", "1306849450").execute();
    expect(jobs).toHaveLength(0);
  });
});

describe("private targets are refused unless the operator allows them", () => {
  it("refuses a loopback callback_url and never connects to a private practice address", async () => {
    const strict = await startTestServer({
      worker: true,
      env: { HCS_DNS_SERVERS: `127.0.0.1:${samples.dns.port}`, HCS_JOB_LEASE_MS: "2000" },
    });
    try {
      const a = await accountWithKey(strict.server.deps, { credits: 1000 });
      const p = samples.practices[2]!;
      await addPractice(strict.server.deps, {
        npi: p.npi,
        name: p.name,
        domain: p.domain,
        website: p.website,
        accountId: a.accountId,
      });
      const cb = await strict.request("/v1/a2a/scans/dispatch", {
        method: "POST",
        headers: { "X-API-Key": a.apiKey },
        body: { npi: p.npi, callback_url: "https://127.0.0.1:9/hook" },
      });
      expect([cb.status, cb.json.error.code]).toEqual([400, "invalid_callback_url"]);
      const before = samples.connectionCounts(p.npi);
      const res = await strict.request("/v1/a2a/scans/dispatch", {
        method: "POST",
        headers: { "X-API-Key": a.apiKey },
        body: { npi: p.npi },
      });
      expect(res.status).toBe(202);
      const end = Date.now() + 30_000;
      let job: { status: string; result: { coverage: { external: { categories_with_data: string[] } } } };
      do {
        await new Promise((r) => setTimeout(r, 100));
        job = (await strict.request(res.json.poll_url, { headers: { "X-API-Key": a.apiKey } })).json;
      } while (job.status !== "failed" && job.status !== "completed" && Date.now() < end);
      // Email records come from the operator's DNS server, not the practice's hosts, so that category is
      // still assessed; every check that would connect to the loopback site was refused.
      expect(job.status).toBe("completed");
      expect(job.result.coverage.external.categories_with_data).toEqual(["email_security"]);
      expect(samples.connectionCounts(p.npi)).toEqual(before);
      const credits = await strict.server.deps.store.db
        .selectFrom("accounts")
        .select("credits")
        .where("id", "=", a.accountId)
        .executeTakeFirstOrThrow();
      expect(credits.credits).toBe(850);
    } finally {
      await strict.close();
    }
  }, 60_000);
});

describe("an unreachable practice", () => {
  it("fails promptly with target_unreachable, refunded, when its DNS never answers", async () => {
    const { startSilentDnsServer } = await import("../../external-scan/test-support/silent-servers.js");
    const silent = await startSilentDnsServer();
    const quiet = await startTestServer({
      worker: true,
      env: { HCS_DNS_SERVERS: `${silent.host}:${silent.port}`, HCS_ALLOW_PRIVATE_TARGETS: "1" },
    });
    try {
      const a = await accountWithKey(quiet.server.deps, { credits: 1000 });
      await addPractice(quiet.server.deps, {
        npi: "1245319599",
        name: "Quiet Clinic",
        domain: "quiet-clinic.test",
        website: "https://www.quiet-clinic.test/",
        accountId: a.accountId,
      });
      const started = Date.now();
      const res = await quiet.request("/v1/a2a/scans/dispatch", {
        method: "POST",
        headers: { "X-API-Key": a.apiKey },
        body: { npi: "1245319599" },
      });
      expect(res.status).toBe(202);
      let job: { status: string; attempts: number; error?: { code: string; message: string } };
      do {
        await new Promise((r) => setTimeout(r, 200));
        job = (await quiet.request(res.json.poll_url, { headers: { "X-API-Key": a.apiKey } })).json;
      } while (job.status !== "failed" && job.status !== "completed" && Date.now() - started < 90_000);
      expect(job).toMatchObject({ status: "failed", attempts: 1, error: { code: "target_unreachable" } });
      expect(job.error?.message).toContain("timeout");
      // One scan budget (60 s) at most, in practice the DNS timeouts.
      expect(Date.now() - started).toBeLessThan(65_000);
      const credits = await quiet.server.deps.store.db
        .selectFrom("accounts")
        .select("credits")
        .where("id", "=", a.accountId)
        .executeTakeFirstOrThrow();
      expect(credits.credits).toBe(1000);
    } finally {
      await quiet.close();
      await silent.stop();
    }
  }, 120_000);
});

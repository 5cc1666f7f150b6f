import { describe, expect, it } from "vitest";
import {
  CREDIT_PRICES,
  FREE_TIER_CREDITS,
  FreeKeyRequestSchema,
  GROUP_A_PLANS,
  MAX_ANONYMOUS_REQUEST_BYTES,
  MAX_JSON_DEPTH,
  MAX_REQUEST_BYTES,
  PLAN_TABLE,
  RATE_LIMITS,
} from "./billing.js";
import { FindingInputSchema, FindingSchema } from "./finding.js";
import { GradeRecordSchema } from "./grade-record.js";
import { JobSchema, ScanDispatchAcceptanceSchema, ScanDispatchRequestSchema } from "./jobs.js";
import { canonicalJson } from "./json.js";
import { ReputationSnapshotSchema } from "./reputation.js";
import { AgentRegistrationRequestSchema, DeployTokenResponseSchema, ScanResultDocumentSchema } from "./scanner.js";
import { scorePractice } from "./scoring/score.js";

const finding = {
  id: "email.dmarc_missing:example.org",
  check_id: "email.dmarc_missing",
  source: "external",
  category: "email_security",
  severity: "high",
  title: "No DMARC record",
  detail: "example.org publishes no DMARC policy, so spoofed mail from it is not rejected.",
  remediation: "Publish a DMARC record at _dmarc.example.org with p=quarantine or p=reject and a rua address.",
  controls: ["164.312(e)(1)"],
} as const;

describe("scan dispatch", () => {
  it("defaults scan_type to full", () => {
    expect(ScanDispatchRequestSchema.parse({ npi: "1234567893" })).toEqual({ npi: "1234567893", scan_type: "full" });
  });

  it("refuses other scan types, unknown members, bad NPIs and non-https callbacks", () => {
    const bad = [
      { npi: "1234567893", scan_type: "quick" },
      { npi: "1234567893", extra: 1 },
      { npi: "1234567890" },
      { npi: "1234567893", callback_url: "http://example.org/hook" },
      { npi: "1234567893", callback_url: "not a url" },
      { npi: "1234567893", callback_url: "ftp://example.org/" },
      {},
      null,
      "1234567893",
    ];
    for (const body of bad) expect(ScanDispatchRequestSchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
    expect(
      ScanDispatchRequestSchema.parse({ npi: "1234567893", callback_url: "https://hooks.example.org/x?y=1" })
        .callback_url,
    ).toBe("https://hooks.example.org/x?y=1");
  });

  it("acceptance poll_url is the job path", () => {
    const ok = { status: "accepted", job_id: "j1", poll_url: "/v1/a2a/jobs/j1", estimated_duration_ms: 1200 };
    expect(ScanDispatchAcceptanceSchema.parse(ok)).toEqual(ok);
    expect(ScanDispatchAcceptanceSchema.safeParse({ ...ok, poll_url: "/elsewhere" }).success).toBe(false);
  });
});

describe("findings", () => {
  it("accepts a well-formed finding and defaults evidence to {}", () => {
    expect(FindingInputSchema.parse(finding).evidence).toEqual({});
  });

  it("refuses unknown controls, categories and caps", () => {
    expect(FindingInputSchema.safeParse({ ...finding, controls: ["164.999(z)"] }).success).toBe(false);
    expect(FindingInputSchema.safeParse({ ...finding, category: "vibes" }).success).toBe(false);
    expect(FindingInputSchema.safeParse({ ...finding, grade_cap: "made_up" }).success).toBe(false);
    expect(FindingInputSchema.safeParse({ ...finding, controls: [] }).success).toBe(false);
  });

  it("stored findings carry first and last seen", () => {
    const stored = {
      ...finding,
      evidence: {},
      first_seen: "2026-11-01T00:00:00.000Z",
      last_seen: "2026-11-02T00:00:00Z",
    };
    expect(FindingSchema.parse(stored).first_seen).toBe(stored.first_seen);
  });
});

describe("grade record and job", () => {
  const scored = scorePractice([
    { source: "external", subject: "example.org", categories: ["email_security"], findings: [finding] },
  ])!;
  const record = {
    npi: "1234567893",
    practice_name: "Example Family Practice",
    compliance_score: scored.compliance_score,
    grade: scored.grade,
    categories: scored.categories,
    scan_date: "2026-11-22T01:00:00.000Z",
    coverage: scored.coverage,
    caps_applied: scored.caps_applied,
    scoring_version: scored.scoring_version,
  };

  it("a scoring result fits the grade record", () => {
    expect(GradeRecordSchema.parse(record)).toEqual(record);
    expect(GradeRecordSchema.safeParse({ ...record, compliance_score: 101 }).success).toBe(false);
    expect(GradeRecordSchema.safeParse({ ...record, grade: "E" }).success).toBe(false);
    expect(GradeRecordSchema.safeParse({ ...record, categories: { nope: { score: 1, weight: 1 } } }).success).toBe(
      false,
    );
  });

  it("a completed job carries the result", () => {
    const job = {
      job_id: "j1",
      status: "completed",
      scan_type: "full",
      npi: "1234567893",
      poll_url: "/v1/a2a/jobs/j1",
      callback_url: null,
      attempts: 1,
      max_attempts: 3,
      created_at: "2026-11-22T01:00:00.000Z",
      started_at: "2026-11-22T01:00:01.000Z",
      completed_at: "2026-11-22T01:00:02.000Z",
      result: {
        ...record,
        findings: [{ ...finding, evidence: {}, first_seen: record.scan_date, last_seen: record.scan_date }],
        report: {
          findings_by_severity: { critical: 0, high: 1, medium: 0, low: 0, info: 0 },
          top_findings: [{ id: finding.id, title: finding.title, severity: "high" }],
        },
      },
    };
    expect(JobSchema.parse(job).result?.grade).toBe(record.grade);
    expect(JobSchema.safeParse({ ...job, status: "done" }).success).toBe(false);
  });
});

describe("scanner documents", () => {
  it("deploy token response", () => {
    const r = {
      deploy_token: "hcsdt1.x",
      npi: "1234567893",
      expires_at: "2026-11-23T01:00:00.000Z",
      max_uses: 1,
      server_url: "https://127.0.0.1:8443",
      ca_sha256: "a".repeat(64),
      install: {
        npm: "npm i -g @hcs/scanner-cli",
        register: "hcs-scanner register --key-file token.txt",
        scan: "hcs-scanner scan",
        one_shot: "hcs-scanner one-shot --key-file token.txt",
      },
    };
    expect(DeployTokenResponseSchema.parse(r)).toEqual(r);
    expect(DeployTokenResponseSchema.safeParse({ ...r, ca_sha256: "A".repeat(64) }).success).toBe(false);
  });

  it("registration requires a 32-byte Ed25519 key and a 64-byte proof", () => {
    const req = {
      deploy_token: "hcsdt1.x",
      public_key: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
      proof: "A".repeat(86),
      hostname: "frontdesk-01",
      platform: "linux",
      scanner_version: "0.1.0",
    };
    expect(AgentRegistrationRequestSchema.parse(req).ephemeral).toBe(false);
    expect(AgentRegistrationRequestSchema.safeParse({ ...req, public_key: "short" }).success).toBe(false);
    expect(AgentRegistrationRequestSchema.safeParse({ ...req, platform: "plan9" }).success).toBe(false);
  });

  it("scan result document", () => {
    const doc = {
      schema_version: 1,
      scan_id: "7b0d3c1e-8f5a-4a53-9c1b-2f1f6d1e9a10",
      agent_id: "agt_1",
      scanner_version: "0.1.0",
      host: { hostname: "frontdesk-01", platform: "linux", os_name: "Debian GNU/Linux", os_version: "12", arch: "x64" },
      scope: { mode: "targets", targets: ["127.0.0.1"] },
      started_at: "2026-11-22T01:00:00.000Z",
      completed_at: "2026-11-22T01:00:10.000Z",
      phases: [
        {
          id: "ports",
          status: "ok",
          duration_ms: 120,
          facts: { open: [{ host: "127.0.0.1", port: 22 }] },
          findings: [],
        },
        { id: "mfa", status: "unsupported", duration_ms: 0, reason: "not on this platform", facts: {}, findings: [] },
      ],
    };
    expect(ScanResultDocumentSchema.parse(doc).phases).toHaveLength(2);
    expect(ScanResultDocumentSchema.safeParse({ ...doc, phases: [] }).success).toBe(false);
    expect(
      ScanResultDocumentSchema.safeParse({ ...doc, phases: [{ ...doc.phases[0], id: "thirteenth" }] }).success,
    ).toBe(false);
    expect(ScanResultDocumentSchema.safeParse({ ...doc, extra: true }).success).toBe(false);
  });
});

describe("limits and prices", () => {
  it("are those docs/api.md states", () => {
    expect(RATE_LIMITS).toEqual({
      group_a: { per_minute: 100, per_hour: 1000 },
      group_b: { standard: { per_minute: 60 }, bulk: { per_minute: 600 } },
    });
    expect(FREE_TIER_CREDITS).toBe(500);
    expect(MAX_REQUEST_BYTES).toBe(10 * 1024 * 1024);
    expect(MAX_ANONYMOUS_REQUEST_BYTES).toBe(64 * 1024);
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(CREDIT_PRICES).toEqual({
      grade: 25,
      breach: 25,
      findings: 25,
      threat_intelligence: 25,
      full_scan: 150,
      sra: 500,
      evidence: 25,
      breach_probability: 25,
      vendor_risk: 25,
      compliance_state: 25,
      compliance_delta: 25,
      policy_document: 25,
    });
  });

  it("the plan table is the spec's per-check price track, and the one source of prices and plans", () => {
    // CREDIT_PRICES is the table's own object: nothing can charge a price the table does not state.
    expect(CREDIT_PRICES).toBe(PLAN_TABLE.prices);
    expect(PLAN_TABLE.prices).toMatchObject({ grade: 25, breach: 25, findings: 25, full_scan: 150, sra: 500 });
    expect(PLAN_TABLE.plans.free).toMatchObject({
      opening_credits: FREE_TIER_CREDITS,
      annual_minimum: 0,
      group_a: false,
    });
    expect(PLAN_TABLE.plans.professional).toMatchObject({ annual_minimum: 5000, group_a: true });
    expect(PLAN_TABLE.plans.enterprise).toMatchObject({ annual_minimum: 5000, group_a: true });
    expect(GROUP_A_PLANS).toEqual(["professional", "enterprise"]);
    expect(PLAN_TABLE.statement_period_months).toBe(12);
  });

  it("free key requests need an email and an organization", () => {
    expect(FreeKeyRequestSchema.parse({ email: "it@clinic.example", organization: " Clinic " }).organization).toBe(
      "Clinic",
    );
    expect(FreeKeyRequestSchema.safeParse({ email: "nope", organization: "x" }).success).toBe(false);
    expect(FreeKeyRequestSchema.safeParse({ email: "it@clinic.example", organization: "  " }).success).toBe(false);
  });
});

describe("canonical JSON and the reputation snapshot", () => {
  it("sorts keys at every depth and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson("é\n")).toBe('"é\\n"');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
  });

  it("snapshot fields validate", () => {
    const snap = {
      total_scans: 3,
      practices_served: 2,
      findings_detected: 9,
      breaches_tracked: 0,
      documents_generated: 1,
      average_response_time_ms: 4.2,
      uptime_seconds: 60,
      generated_at: "2026-11-22T01:00:00.000Z",
      sha256: "0".repeat(64),
    };
    expect(ReputationSnapshotSchema.parse(snap)).toEqual(snap);
    expect(ReputationSnapshotSchema.safeParse({ ...snap, total_scans: -1 }).success).toBe(false);
  });
});

describe("JSON values (facts, evidence)", () => {
  it("accepts plain JSON and refuses what JSON cannot carry", async () => {
    const { JsonObjectSchema, isJsonValue } = await import("./json.js");
    expect(JsonObjectSchema.parse({ a: [1, "x", null, { b: true }] })).toEqual({ a: [1, "x", null, { b: true }] });
    for (const bad of [{ a: Number.NaN }, { a: () => 1 }, { a: undefined }, { a: new Date() }, { a: 1n }]) {
      expect(JsonObjectSchema.safeParse(bad).success, String(Object.values(bad)[0])).toBe(false);
    }
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(isJsonValue(deep)).toBe(false);
    expect(JsonObjectSchema.safeParse([1]).success).toBe(false);
  });
});

import { randomUUID } from "node:crypto";
import {
  type FindingInput,
  type FindingParsed,
  type GradeRecord,
  type OwnerGradeRecord,
  PHASE_IDS,
  type PhaseId,
  type PhaseResult,
  type ScanResultDocument,
  type Severity,
} from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAgentKeys, registrationBody, uploadHeaders } from "../../test-support/agent-client.js";
import type { TestAgent } from "../../test-support/enrolled-practice.js";
import { accountWithKey, gradedPractice } from "../../test-support/fixtures.js";
import { shouldRunPostgres } from "../../test-support/postgres.js";
import { startTestServer, type TestServer } from "../../test-support/test-server.js";

const DAY = 86_400_000;
const T0 = Date.parse("2026-11-01T09:00:00.000Z");
const at = (days: number) => new Date(T0 + days * DAY);

type Scope = ScanResultDocument["scope"];
const HOST_SCOPE: Scope = { mode: "host", targets: [] };

/** A finding as a scanner phase words one (check id `<phase>.<check>`). */
function finding(
  phase: PhaseId,
  check: string,
  severity: Severity,
  o: { host?: string; cap?: FindingInput["grade_cap"]; category?: FindingInput["category"] } = {},
): FindingInput {
  const category =
    o.category ??
    (
      {
        disk_encryption: "encryption",
        tls: "encryption",
        mfa: "access_control",
        access_control: "access_control",
        ports: "network_security",
        segmentation: "network_security",
        patches: "asset_management",
        eol: "asset_management",
        backups: "contingency",
      } as Partial<Record<PhaseId, FindingInput["category"]>>
    )[phase]!;
  return {
    id: `${phase}.${check}${o.host ? `:${o.host}` : ""}`,
    check_id: `${phase}.${check}`,
    source: "internal",
    category,
    severity,
    title: `${phase} ${check}${o.host ? ` on ${o.host}` : ""}`,
    detail: `What ${check} means.`,
    evidence: {},
    remediation: `Fix ${check}.`,
    controls: ["164.312(e)(1)"],
    ...(o.host ? { host: o.host } : {}),
    ...(o.cap ? { grade_cap: o.cap } : {}),
  };
}

/** A scan document with the given phases completed (ok) and their findings; every other phase absent. */
function scan(
  agentId: string,
  hostname: string,
  completedAt: Date,
  phases: Partial<Record<PhaseId, FindingInput[]>>,
  scope: Scope = HOST_SCOPE,
): ScanResultDocument {
  return {
    schema_version: 1,
    scan_id: randomUUID(),
    agent_id: agentId,
    scanner_version: "0.1.0",
    host: { hostname, platform: "linux", os_name: "Debian GNU/Linux", os_version: "12", arch: "x64" },
    scope,
    started_at: new Date(completedAt.getTime() - 5000).toISOString(),
    completed_at: completedAt.toISOString(),
    phases: PHASE_IDS.filter((id) => phases[id]).map(
      (id): PhaseResult => ({
        id,
        status: "ok",
        duration_ms: 10,
        facts: {},
        findings: phases[id] as PhaseResult["findings"],
      }),
    ),
  };
}

/** Every phase completed, with these findings (the rest clean). */
const full = (findings: Partial<Record<PhaseId, FindingInput[]>>) =>
  Object.fromEntries(PHASE_IDS.map((id) => [id, findings[id] ?? []])) as Record<PhaseId, FindingInput[]>;

function externalFinding(category: FindingParsed["category"], severity: Severity, n: number): FindingParsed {
  return {
    id: `ext.${category}.${n}`,
    check_id: `ext.${category}`,
    source: "external",
    category,
    severity,
    title: `${category} ${n}`,
    detail: "An external finding.",
    evidence: {},
    remediation: "Fix it.",
    controls: ["164.312(e)(1)"],
  };
}

function partialScanSuite(engine: "sqlite" | "postgres") {
  describe(`a narrow scan updates only what it covered (${engine}, over HTTPS)`, () => {
    let t: TestServer;
    let clock = at(0);
    let apiKey: string;
    let accountId: string;

    beforeAll(async () => {
      t = await startTestServer({ engine, now: () => clock });
      const owner = await accountWithKey(t.server.deps, { plan: "professional", tier: "bulk", credits: 100_000 });
      apiKey = owner.apiKey;
      accountId = owner.accountId;
    });
    afterAll(async () => {
      await t?.close();
    });

    async function practice(npi: string, external: FindingParsed[] = []) {
      clock = at(0);
      await gradedPractice(t.server.deps, accountId, npi, external);
      const issued = await t.request(`/v1/a2a/network/deploy/${npi}`, {
        method: "POST",
        headers: { "X-API-Key": apiKey },
        body: { max_uses: 5 },
      });
      expect(issued.status, issued.text).toBe(201);
      const token = issued.json.deploy_token as string;
      return {
        async enrol(hostname: string, ephemeral = false): Promise<TestAgent> {
          const keys = newAgentKeys();
          const res = await t.request("/v1/a2a/network/register", {
            method: "POST",
            body: { ...registrationBody(token, keys, hostname), ephemeral },
          });
          expect(res.status, res.text).toBe(201);
          return { agentId: res.json.agent_id as string, hostname, privateKey: keys.privateKey };
        },
      };
    }

    async function upload(agent: TestAgent, doc: ScanResultDocument): Promise<OwnerGradeRecord> {
      const body = JSON.stringify(doc);
      const res = await t.request("/v1/a2a/network/results", {
        method: "POST",
        headers: uploadHeaders(agent.agentId, doc.scan_id, body, agent.privateKey),
        body,
      });
      expect(res.status, res.text).toBe(201);
      return res.json.grade as OwnerGradeRecord;
    }

    async function grade(npi: string): Promise<GradeRecord> {
      const res = await t.request(`/v1/a2a/grade/${npi}`, { headers: { "X-API-Key": apiKey } });
      expect(res.status, res.text).toBe(200);
      return res.json as GradeRecord;
    }

    /** The grade as the owner reads it, with its internal basis: the practice status (Group A). */
    async function ownerGrade(npi: string): Promise<OwnerGradeRecord> {
      const res = await t.request(`/v1/practice?npi=${npi}`, { headers: { Authorization: `Bearer ${apiKey}` } });
      expect(res.status, res.text).toBe(200);
      return res.json.compliance.grade as OwnerGradeRecord;
    }

    async function openInternal(npi: string): Promise<string[]> {
      const res = await t.request(`/v1/a2a/findings/${npi}?source=internal&limit=200`, {
        headers: { "X-API-Key": apiKey },
      });
      expect(res.status, res.text).toBe(200);
      return (res.json.findings as { id: string }[]).map((f) => f.id).sort();
    }

    const phaseBasis = (g: OwnerGradeRecord, host: string) =>
      Object.fromEntries(g.internal_basis!.hosts.find((h) => h.host === host)!.phases.map((p) => [p.phase, p]));

    it("keeps the disk-encryption finding and its cap through a --targets 127.0.0.0/28 --phases ports,tls scan", async () => {
      const npi = "1234567893";
      const p = await practice(npi);
      const agent = await p.enrol("frontdesk-01");

      // Full scan. External clean: 3 × 100 (weights 10 + 15 + 10 = 3500). Internal: encryption 100 − 40 = 60
      // (× 15 = 900), access_control 80 (800), network_security 100 − 40 − 20 = 40 (400), asset_management 90
      // (900), contingency 90 (900): 7400 / 90 = 82, capped at 79 (C) by the unencrypted ePHI device.
      clock = at(1);
      const first = await upload(
        agent,
        scan(
          agent.agentId,
          "frontdesk-01",
          at(1),
          full({
            disk_encryption: [
              finding("disk_encryption", "unencrypted_volume", "critical", { cap: "unencrypted_ephi_device" }),
            ],
            mfa: [finding("mfa", "no_mfa", "high")],
            ports: [
              finding("ports", "risky_service", "critical", { host: "10.20.0.6" }),
              finding("ports", "risky_service", "high", { host: "10.20.0.5" }),
            ],
            patches: [finding("patches", "pending", "medium")],
            backups: [finding("backups", "stale", "medium")],
          }),
          { mode: "targets", targets: ["10.20.0.0/24"] },
        ),
      );
      expect([first.compliance_score, first.grade]).toEqual([79, "C"]);
      expect(first.caps_applied.map((c) => c.id)).toEqual(["unencrypted_ephi_device"]);
      const before = await openInternal(npi);
      expect(before).toHaveLength(6);

      // The narrow scan that once gamed the grade (docs/scanner.md#the-grade-partial-scans-and-result-age): two
      // phases, another network, nothing found. It used to make the grade
      // (3500 + 1000 + 1500) / 60 = 100 (A): only its two categories were left.
      clock = at(2);
      const narrow = await upload(
        agent,
        scan(
          agent.agentId,
          "frontdesk-01",
          at(2),
          { ports: [], tls: [] },
          { mode: "targets", targets: ["127.0.0.0/28"] },
        ),
      );
      expect([narrow.compliance_score, narrow.grade]).toEqual([79, "C"]);
      expect(narrow.caps_applied.map((c) => c.id)).toEqual(["unencrypted_ephi_device"]);
      expect(narrow.categories).toEqual(first.categories);
      // Nothing it did not look at was resolved: the disk finding, and the ports findings about 10.20.0.x.
      expect(await openInternal(npi)).toEqual(before);
      const basis = phaseBasis(narrow, "frontdesk-01");
      expect(basis.ports).toMatchObject({
        state: "current",
        assessed_at: at(2).toISOString(),
        age_days: 0,
        scope: { mode: "targets", targets: ["127.0.0.0/28"] },
      });
      expect(basis.disk_encryption).toMatchObject({ state: "current", assessed_at: at(1).toISOString(), age_days: 1 });
      expect(basis.disk_encryption!.scope).toBeUndefined();
      expect(narrow.internal_basis!.max_age_days).toBe(30);
      // The lookup any key may make answers the same record without the owner's internal basis (host names, scopes).
      const { internal_basis: _owners, ...publicRecord } = narrow;
      expect(await grade(npi)).toEqual(publicRecord);
      // The compliance state rests on the same per-phase results: encryption at rest is still judged from the full
      // scan's disk-encryption result (and its open finding), not "never ran" because the latest scan skipped it.
      const compliance = await t.request(`/v1/a2a/compliance/${npi}`, { headers: { "X-API-Key": apiKey } });
      expect(compliance.status, compliance.text).toBe(200);
      const encryption = compliance.json.requirements.find((r: { id: string }) => r.id === "encryption_at_rest");
      expect(encryption.state).toBe("not_met");

      // The ports phase scanning 10.20.0.0/24 again resolves what it no longer finds there (telnet on .6 fixed):
      // network_security 80.
      clock = at(3);
      const rescan = await upload(
        agent,
        scan(
          agent.agentId,
          "frontdesk-01",
          at(3),
          { ports: [finding("ports", "risky_service", "high", { host: "10.20.0.5" })] },
          { mode: "targets", targets: ["10.20.0.0/24"] },
        ),
      );
      expect(rescan.categories.network_security).toEqual({ score: 80, weight: 10 });
      expect(await openInternal(npi)).toEqual(before.filter((id) => id !== "ports.risky_service:10.20.0.6"));

      // A disk-encryption scan that finds the volume encrypted lifts the cap: 8400 / 90 = 93 (A).
      clock = at(4);
      const encrypted = await upload(agent, scan(agent.agentId, "frontdesk-01", at(4), { disk_encryption: [] }));
      expect([encrypted.compliance_score, encrypted.grade, encrypted.caps_applied]).toEqual([93, "A", []]);

      // A scan spooled at day 2.5 and delivered now changes nothing that newer results hold.
      clock = at(5);
      const late = await upload(
        agent,
        scan(agent.agentId, "frontdesk-01", at(2.5), {
          disk_encryption: [
            finding("disk_encryption", "unencrypted_volume", "critical", { cap: "unencrypted_ephi_device" }),
          ],
        }),
      );
      expect([late.compliance_score, late.grade]).toEqual([93, "A"]);
    });

    it("one-shot --phases ports does not take a practice from D to F", async () => {
      const npi = "1245319599";
      // External: email_security 100 − 40 − 20 = 40 (× 10), application_security 60 (× 15), privacy_compliance 80
      // (× 10): 2100.
      const p = await practice(npi, [
        externalFinding("email_security", "critical", 1),
        externalFinding("email_security", "high", 2),
        externalFinding("application_security", "critical", 3),
        externalFinding("privacy_compliance", "high", 4),
      ]);
      const agent = await p.enrol("reception-02");
      // Internal: encryption 100 (1500), access_control 100 − 40 − 20 = 40 (400), network_security 100 − 80 = 20
      // (200), asset_management 80 (800), contingency 80 (800): (2100 + 3700) / 90 = 64 (D).
      const ports = [
        finding("ports", "risky_service", "critical", { host: "127.0.0.1" }),
        finding("ports", "risky_service_rdp", "critical", { host: "127.0.0.1" }),
      ];
      clock = at(0.5);
      const d = await upload(
        agent,
        scan(
          agent.agentId,
          "reception-02",
          at(0.5),
          full({
            mfa: [finding("mfa", "no_mfa", "critical")],
            access_control: [finding("access_control", "guest", "high")],
            ports,
            patches: [finding("patches", "pending", "high")],
            backups: [finding("backups", "stale", "high")],
          }),
        ),
      );
      expect([d.compliance_score, d.grade]).toEqual([64, "D"]);

      // `hcs-scanner one-shot --phases ports` on the same machine: an ephemeral agent, the same open services. It
      // used to leave network_security alone of the internal categories: (2100 + 200) / 45 = 51 (F).
      // (An hour later: the deploy token lives a day.)
      clock = at(0.55);
      const oneShot = await p.enrol("reception-02", true);
      const after = await upload(oneShot, scan(oneShot.agentId, "reception-02", at(0.55), { ports }));
      expect([after.compliance_score, after.grade]).toEqual([64, "D"]);
      expect(after.categories).toEqual(d.categories);
    });

    it("results older than 30 days expire to unknown; their open findings still count; the grade is recomputed when they do", async () => {
      const npi = "1326044074";
      const p = await practice(npi);
      const agent = await p.enrol("exam-03");
      clock = at(0);
      await upload(
        agent,
        scan(
          agent.agentId,
          "exam-03",
          at(0),
          full({
            disk_encryption: [
              finding("disk_encryption", "unencrypted_volume", "critical", { cap: "unencrypted_ephi_device" }),
            ],
            patches: [finding("patches", "pending", "medium")],
          }),
        ),
      );
      clock = at(20);
      const fresh = await upload(agent, scan(agent.agentId, "exam-03", at(20), { ports: [] }));
      expect(fresh.coverage.internal.status).toBe("full");
      const rows = async () =>
        (await t.server.deps.store.db.selectFrom("grades").select("id").where("npi", "=", npi).execute()).length;
      const history = await rows();

      // Day 31: every result of day 0 has expired; ports (day 20) has not.
      clock = at(31);
      const expired = await ownerGrade(npi);
      const basis = phaseBasis(expired, "exam-03");
      expect(basis.ports).toMatchObject({ state: "current", age_days: 11 });
      expect(basis.disk_encryption).toMatchObject({ state: "expired", age_days: 31, expires_at: at(30).toISOString() });
      expect(basis.backups!.state).toBe("expired");
      // access_control and contingency were only vouched for by expired clean results: unknown now.
      expect(expired.coverage.internal.categories_without_data.sort()).toEqual(["access_control", "contingency"]);
      // A known problem does not expire by waiting: the disk finding and its cap still count, as does the patch.
      expect(expired.caps_applied.map((c) => c.id)).toEqual(["unencrypted_ephi_device"]);
      expect(expired.categories.encryption).toEqual({ score: 60, weight: 15 });
      expect(expired.categories.asset_management).toEqual({ score: 90, weight: 10 });
      expect(expired.categories.network_security).toEqual({ score: 100, weight: 10 });
      // The expiry joined the history once; the next lookup reads it.
      expect(await rows()).toBe(history + 1);
      expect(await ownerGrade(npi)).toEqual(expired);
      const { internal_basis: _owners, ...publicRecord } = expired;
      expect(await grade(npi)).toEqual(publicRecord);
      expect(await rows()).toBe(history + 1);

      // Day 51: the ports result has expired too; network_security is unknown.
      clock = at(51);
      const later = await ownerGrade(npi);
      expect(phaseBasis(later, "exam-03").ports!.state).toBe("expired");
      expect(later.coverage.internal.categories_with_data.sort()).toEqual(["asset_management", "encryption"]);
      expect(await rows()).toBe(history + 2);
    });
  });
}

partialScanSuite("sqlite");
const runPg = await shouldRunPostgres();
describe.skipIf(!runPg)("postgres", () => partialScanSuite("postgres"));

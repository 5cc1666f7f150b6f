import {
  exceededFindingLimit,
  type FindingInput,
  type PhaseResult,
  SCAN_UPLOAD_LIMITS,
  ScanResultDocumentSchema,
  type Severity,
} from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { phaseFinding } from "../phases/shared/finding.js";
import { buildScanDocument } from "./document.js";
import { fitUploadLimits } from "./fit-upload-limits.js";

const { findings_per_host, hosts_per_upload, findings_per_upload, upload_bytes } = SCAN_UPLOAD_LIMITS;
const HOSTNAME = "frontdesk-01";

/** A risky-service finding about `host` (or this machine), as the ports phase makes them. */
const portFinding = (host: string | null, port: number, severity: Severity): FindingInput =>
  phaseFinding("ports", {
    check: "risky_service",
    subject: `${host ?? "127.0.0.1"}:${port}`,
    ...(host ? { host } : {}),
    severity,
    title: `service on TCP ${port} is open`,
    detail: "A risky service is reachable from this segment.",
    remediation: "Close it or restrict it to the hosts that need it.",
    evidence: { port },
  });

const phase = (id: PhaseResult["id"], findings: FindingInput[], facts: PhaseResult["facts"] = {}): PhaseResult => ({
  id,
  status: "ok",
  duration_ms: 10,
  facts,
  findings: findings as PhaseResult["findings"],
});

const build = (phases: PhaseResult[]) =>
  buildScanDocument({
    agentId: "agt_AAAAAAAAAAAAAAAA",
    scannerVersion: "0.1.0",
    host: { hostname: HOSTNAME, platform: "linux", os_name: "Debian", os_version: "12", arch: "x64" },
    scope: { mode: "targets", hosts: [], given: ["10.20.0.0/22"] },
    startedAt: new Date("2026-11-22T01:00:00.000Z"),
    completedAt: new Date("2026-11-22T01:00:05.000Z"),
    phases,
  });

const findingsOf = (doc: { phases: readonly { findings: readonly FindingInput[] }[] }) =>
  doc.phases.flatMap((p) => p.findings);
const bodyBytes = (doc: unknown) => Buffer.byteLength(JSON.stringify(doc));
const SEVERITY_CYCLE: Severity[] = ["low", "info", "medium", "high", "critical"];

describe("the scan document's scope", () => {
  it("lists the targets as given, then the addresses of the named ones (the server resolves nothing)", () => {
    const { document } = buildScanDocument({
      agentId: "agt_AAAAAAAAAAAAAAAA",
      scannerVersion: "0.1.0",
      host: { hostname: HOSTNAME, platform: "linux", os_name: "Debian", os_version: "12", arch: "x64" },
      scope: { mode: "targets", hosts: [], given: ["10.20.0.0/30", "ehr.clinic.lan"], named: ["10.20.9.9"] },
      startedAt: new Date("2026-11-22T01:00:00.000Z"),
      completedAt: new Date("2026-11-22T01:00:05.000Z"),
      phases: [phase("ports", [])],
    });
    expect(document.scope).toEqual({ mode: "targets", targets: ["10.20.0.0/30", "ehr.clinic.lan", "10.20.9.9"] });
  });
});

describe("the scan document fits the upload limits", () => {
  it("is left alone when it is within them", () => {
    const findings = Array.from({ length: 40 }, (_, i) => portFinding(`10.20.0.${i + 1}`, 445, "medium"));
    const { document, leftOut } = build([phase("ports", findings, { open: 40 })]);
    expect(findingsOf(document)).toEqual(findings);
    expect(document.phases[0]!.facts).toEqual({ open: 40 });
    expect(leftOut).toEqual({
      findings: 0,
      bySeverity: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
      hosts: 0,
      factsOf: [],
    });
  });

  it("keeps the most severe findings of a host over the per-host limit, and says what was left out", () => {
    const many = Array.from({ length: findings_per_host + 100 }, (_, i) =>
      portFinding(null, 1000 + i, SEVERITY_CYCLE[i % 5]!),
    );
    const { document, leftOut } = build([phase("ports", many), phase("disk_encryption", [])]);
    expect(exceededFindingLimit(document)).toBeNull();
    const kept = findingsOf(document);
    expect(kept).toHaveLength(findings_per_host);
    // Every critical, high and medium survives; the cut falls among the low and info findings.
    for (const s of ["critical", "high", "medium"] as const)
      expect(kept.filter((f) => f.severity === s)).toHaveLength(many.filter((f) => f.severity === s).length);
    const note = kept.find((f) => f.id === "ports.findings_left_out")!;
    expect(note).toMatchObject({ severity: "info", category: "network_security", source: "internal" });
    expect(note.host).toBeUndefined(); // about the scanning machine
    expect(note.evidence).toMatchObject({ left_out: 101, left_out_by_severity: { info: 101 } });
    expect(leftOut).toMatchObject({ findings: 101, bySeverity: { critical: 0, low: 0, info: 101 }, hosts: 0 });
  });

  it("keeps the hosts with the most severe findings when there are too many hosts", () => {
    const hosts = Array.from({ length: hosts_per_upload + 88 }, (_, i) => `10.20.${i >> 8}.${i & 255}`);
    // Every tenth host has a critical finding; the rest a low one.
    const findings = hosts.map((h, i) => portFinding(h, 23, i % 10 === 0 ? "critical" : "low"));
    const { document, leftOut } = build([phase("ports", findings)]);
    expect(exceededFindingLimit(document)).toBeNull();
    const kept = findingsOf(document);
    const keptHosts = new Set(kept.map((f) => f.host ?? HOSTNAME));
    expect(keptHosts.size).toBe(hosts_per_upload); // the scanning machine (the note) and the others
    expect(kept.filter((f) => f.severity === "critical")).toHaveLength(
      findings.filter((f) => f.severity === "critical").length,
    );
    expect(leftOut).toMatchObject({ findings: 89, hosts: 89, bySeverity: { low: 89 } });
  });

  it("keeps the most severe findings overall when there are too many in all, within the byte limit", () => {
    const hosts = Array.from({ length: 10 }, (_, i) => `10.20.0.${i + 1}`);
    const findings = hosts.flatMap((h) =>
      Array.from({ length: 300 }, (_, i) => portFinding(h, 1000 + i, i < 20 ? "high" : "low")),
    );
    const { document, leftOut } = build([phase("ports", findings)]);
    expect(exceededFindingLimit(document)).toBeNull();
    expect(findingsOf(document)).toHaveLength(findings_per_upload);
    expect(findingsOf(document).filter((f) => f.severity === "high")).toHaveLength(200);
    expect(leftOut.findings).toBe(findings.length - (findings_per_upload - 1));
    expect(bodyBytes(document)).toBeLessThanOrEqual(upload_bytes);
    expect(() => ScanResultDocumentSchema.parse(document)).not.toThrow();
  });

  it("gives up the largest facts first, then findings, to fit the byte limit", () => {
    const small = { ...SCAN_UPLOAD_LIMITS, upload_bytes: 20_000 };
    const doc = build([
      phase("asset_inventory", [], {
        software: Array.from({ length: 1000 }, (_, i) => ({ name: `pkg-${i}`, version: "1.0" })),
      }),
      phase("disk_encryption", [portFinding(null, 1, "critical")], { volumes: 1 }),
    ]).document;
    const fitted = fitUploadLimits(doc, (b) => Buffer.byteLength(b), small);
    expect(bodyBytes(fitted.document)).toBeLessThanOrEqual(small.upload_bytes);
    expect(fitted.leftOut).toMatchObject({ findings: 0, factsOf: ["asset_inventory"] });
    expect(fitted.document.phases[1]!.facts).toEqual({ volumes: 1 });

    const wordy = Array.from({ length: 200 }, (_, i) => portFinding(`10.20.0.${i + 1}`, 445, i < 5 ? "high" : "low"));
    const fittedFindings = fitUploadLimits(build([phase("ports", wordy)]).document, (b) => Buffer.byteLength(b), small);
    expect(bodyBytes(fittedFindings.document)).toBeLessThanOrEqual(small.upload_bytes);
    expect(findingsOf(fittedFindings.document).filter((f) => f.severity === "high")).toHaveLength(5);
    expect(fittedFindings.leftOut.findings).toBeGreaterThan(0);
  });
});

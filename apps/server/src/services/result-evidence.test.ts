import { readFileSync } from "node:fs";
import type { PhaseResult } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { holdsEphi } from "../readiness/host-restore.js";
import { resultEvidence } from "./result-evidence.js";

/** The scanner's persona scans (apps/scanner-cli/src/phases/test-support/persona-scans.ts). */
const persona = (name: string) =>
  JSON.parse(
    readFileSync(
      new URL(`../../../scanner-cli/src/phases/test-support/fixtures/persona-scans/${name}.json`, import.meta.url),
      "utf8",
    ),
  ) as { phases: PhaseResult[] };
const evidenceOf = (name: string) =>
  Object.fromEntries(persona(name).phases.map((p) => [p.id, resultEvidence(p.id, p.facts)]));

describe("what the requirements keep of a phase's facts", () => {
  it("the EHR server: database software, Veeam's readiness verdict, every audit part read", () => {
    const e = evidenceOf("linux-ehr-server");
    expect(e.asset_inventory).toEqual({ ephi_roles: ["database"] });
    expect(e.ephi_flow).toEqual({ files_flagged: 0 });
    expect(e.backups?.readiness).toMatchObject({
      ephi_bearing: true,
      backup: { state: "recent", tool: "veeam" },
      restore: { tool: "veeam", duration_minutes: 102, succeeded: true },
    });
    expect(e.access_control).toEqual({ audit: { read: ["audit"], not_read: {} } });
    expect(e.ports).toBeNull();
    expect(holdsEphi(Object.values(e))).toBe(true);
  });

  it("the Windows front desk: its System log not read; the bare machine: the last backup not established", () => {
    expect(evidenceOf("win32-frontdesk").access_control).toEqual({
      audit: {
        read: ["audit_policy", "event_logs", "time_sync"],
        not_read: { event_logs: "System: wevtutil is not available on this machine" },
      },
    });
    const bare = evidenceOf("linux-bare");
    expect(bare.backups).toMatchObject({
      readiness: { backup: { state: "not_established" } },
      backup_unread: "could not be read: the installed software could not be listed",
    });
    expect(holdsEphi(Object.values(bare))).toBe(false);
  });

  it("keeps nothing of facts that do not read as the scanner writes them", () => {
    expect(resultEvidence("backups", { readiness: { backup: "recent" } })).toBeNull();
    expect(resultEvidence("asset_inventory", { ephi_roles: "database" })).toBeNull();
    expect(resultEvidence("access_control", null)).toBeNull();
  });
});

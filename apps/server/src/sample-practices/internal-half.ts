import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { ScanResultDocument } from "@hcs/protocol";

/**
 * The internal half of a sample practice: the scanner persona whose scan its (one) scanner host uploads, the restore
 * tests its manager records over Group A, and what requirements 6 and 13 must then read. The personas' scans are
 * the scanner's own, kept as fixtures by its tests (apps/scanner-cli/src/phases/test-support/persona-scans.ts): what
 * the phases say about a Debian EHR server, a Windows front desk, a bare machine.
 */
export interface InternalHalf {
  readonly persona: PersonaName;
  /** Restore tests recorded over Group A, dated `days_ago` before the moment they are recorded. */
  readonly restoreTests: readonly {
    readonly days_ago: number;
    readonly system: string;
    readonly data_restored: string;
    readonly time_to_restore_minutes: number;
    readonly outcome: "succeeded" | "failed";
  }[];
  /** Requirements 6 and 13 once the scan is uploaded, the tests recorded and a checkpoint signed over them. */
  readonly expected: { readonly backup_restore: RequirementState; readonly audit_trail: RequirementState };
}

export type RequirementState = "met" | "partial" | "not_met" | "unknown";

/** The scanner's persona scans (apps/scanner-cli/src/phases/test-support/fixtures/persona-scans/). */
export const PERSONA_NAMES = [
  "linux-frontdesk",
  "linux-ehr-server",
  "darwin-laptop",
  "win32-frontdesk",
  "linux-bare",
] as const;
export type PersonaName = (typeof PERSONA_NAMES)[number];

interface PersonaScan {
  readonly persona: PersonaName;
  readonly host: ScanResultDocument["host"];
  readonly scanned_at: string;
  readonly phases: ScanResultDocument["phases"];
}

const PERSONA_DIR = new URL("../../../scanner-cli/src/phases/test-support/fixtures/persona-scans/", import.meta.url);

/** A persona's scan as the scanner keeps it. */
export function personaScan(name: PersonaName): PersonaScan {
  return JSON.parse(readFileSync(new URL(`${name}.json`, PERSONA_DIR), "utf8")) as PersonaScan;
}

/**
 * A persona's scan as an upload of `agentId`, completed at `completedAt` (the persona's verdicts — a backup's age, a
 * restore's date — are the scanner's at its own scan time, as an upload's are).
 */
export function personaScanDocument(name: PersonaName, agentId: string, completedAt: Date): ScanResultDocument {
  const scan = personaScan(name);
  return {
    schema_version: 1,
    scan_id: randomUUID(),
    agent_id: agentId,
    scanner_version: "0.1.0",
    host: scan.host,
    scope: { mode: "host", targets: [] },
    started_at: new Date(completedAt.getTime() - 60_000).toISOString(),
    completed_at: completedAt.toISOString(),
    phases: scan.phases,
  };
}

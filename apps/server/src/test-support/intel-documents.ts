import { randomUUID } from "node:crypto";
import type { FindingInput, ScanResultDocument } from "@hcs/protocol";

export interface InventoryScan {
  readonly hostname: string;
  readonly software: readonly { name: string; version: string }[];
  /** Products the scanner's eol phase identified, with the verdicts its bundled data gave. */
  readonly eolProducts?: readonly {
    kind: "os" | "software";
    name: string;
    version: string;
    product: string;
    cycle: string;
    status: "supported" | "eol" | "unknown";
    eol: string | null;
    support?: "upstream" | "distribution";
  }[];
  /** The eol phase's own findings, as the scanner words them. */
  readonly eolFindings?: readonly FindingInput[];
  readonly completedAt?: string;
}

/** A scan with asset_inventory and eol phase results, as a scanner in the field uploads them. */
export function inventoryScanDocument(agentId: string, scan: InventoryScan): ScanResultDocument {
  return {
    schema_version: 1,
    scan_id: randomUUID(),
    agent_id: agentId,
    scanner_version: "0.1.0",
    host: { hostname: scan.hostname, platform: "linux", os_name: "Ubuntu", os_version: "22.04", arch: "x64" },
    scope: { mode: "host", targets: [] },
    started_at: "2026-11-22T01:00:00.000Z",
    completed_at: scan.completedAt ?? "2026-11-22T01:00:05.000Z",
    phases: [
      {
        id: "asset_inventory",
        status: "ok",
        duration_ms: 300,
        facts: { software: scan.software.map((s) => ({ ...s })) },
        findings: [],
      },
      {
        id: "eol",
        status: "ok",
        duration_ms: 5,
        facts: {
          dataset_date: "2026-04-23",
          os: { name: "Ubuntu", version: "22.04" },
          software_checked: scan.software.length,
          products: (scan.eolProducts ?? []).map((p) => ({ ...p, days_left: null })),
        },
        findings: [...(scan.eolFindings ?? [])] as ScanResultDocument["phases"][number]["findings"],
      },
    ],
  } as ScanResultDocument;
}

import { randomUUID } from "node:crypto";
import { type PhaseResult, type Platform, type ScanResultDocument, ScanResultDocumentSchema } from "@hcs/protocol";
import type { ScanScope } from "../phases/phase.js";

export interface HostIdentity {
  readonly hostname: string;
  readonly platform: Platform;
  readonly os_name: string;
  readonly os_version: string;
  readonly arch: string;
}

/** The upload document (protocol schema): host identity, scope, phase results; counts and locations, never ePHI. */
export function buildScanDocument(input: {
  agentId: string;
  scannerVersion: string;
  host: HostIdentity;
  scope: ScanScope;
  startedAt: Date;
  completedAt: Date;
  phases: readonly PhaseResult[];
  scanId?: string;
}): ScanResultDocument {
  return ScanResultDocumentSchema.parse({
    schema_version: 1,
    scan_id: input.scanId ?? randomUUID(),
    agent_id: input.agentId,
    scanner_version: input.scannerVersion,
    host: input.host,
    scope: { mode: input.scope.mode, targets: [...input.scope.given] },
    started_at: input.startedAt.toISOString(),
    completed_at: input.completedAt.toISOString(),
    phases: input.phases,
  });
}

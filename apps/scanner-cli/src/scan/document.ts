import { randomUUID } from "node:crypto";
import {
  type FindingInput,
  type FindingParsed,
  type PhaseResult,
  type Platform,
  type ScanResultDocument,
  ScanResultDocumentSchema,
} from "@hcs/protocol";
import type { ScanScope } from "../phases/phase.js";
import { fitUploadLimits, type LeftOut } from "./fit-upload-limits.js";

/** The host as the upload describes it. */
export interface DocumentHost {
  readonly hostname: string;
  readonly platform: Platform;
  readonly os_name: string;
  readonly os_version: string;
  readonly arch: string;
}

/**
 * The upload document (protocol schema): host identity, scope, phase results; counts and locations, never ePHI.
 * Fitted to the upload limits (see fitUploadLimits): `leftOut` says what did not fit, so the server never refuses it.
 */
export function buildScanDocument(input: {
  agentId: string;
  scannerVersion: string;
  host: DocumentHost;
  scope: ScanScope;
  startedAt: Date;
  completedAt: Date;
  phases: readonly PhaseResult[];
  scanId?: string;
}): { document: ScanResultDocument; leftOut: LeftOut } {
  const { document, leftOut } = fitUploadLimits(
    {
      schema_version: 1,
      scan_id: input.scanId ?? randomUUID(),
      agent_id: input.agentId,
      scanner_version: input.scannerVersion,
      host: input.host,
      scope: { mode: input.scope.mode, targets: uploadTargets(input.scope) },
      started_at: input.startedAt.toISOString(),
      completed_at: input.completedAt.toISOString(),
      phases: input.phases.map((p) => ({ ...p, findings: p.findings.map(documentFinding) })),
    },
    (body) => Buffer.byteLength(body),
  );
  return { document: ScanResultDocumentSchema.parse(document), leftOut };
}

/**
 * A finding as the upload document carries it, every field the server stores (fix, host, HIPAA controls, evidence,
 * grade cap); `--json` prints the same (scan-outcome.ts). The schema's one default is filled in beforehand, so the
 * bytes measured against the upload limits are the bytes sent.
 */
export function documentFinding(f: FindingInput): FindingParsed {
  return { ...f, evidence: f.evidence ?? {} };
}

/** The targets as given, then the addresses of those given by name (at most the schema's 4096 entries). */
function uploadTargets(scope: ScanScope): string[] {
  return [...new Set([...scope.given, ...(scope.named ?? [])])].slice(0, 4096);
}

// The operations whose audit events are evidence (hipaa.evidence, the scan report). A module of its own: the hot
// path's settlement files their events in the evidence table (services/audit.ts) and needs nothing else of
// audit/evidence.ts.

/** The operation of the worker completing a scan job: what hipaa.evidence proves an external scan by. */
export const COMPLETE_SCAN_OPERATION = "completeScan";

/**
 * The audit operations that create evidence: a scanner's upload (resource `scan:<id>`) and the worker completing an
 * external scan (resource `job:<id>`). Their first successful event on a resource is the record's event. (The
 * upload's operation id is the catalogue's; a test holds them equal.)
 */
export const EVIDENCE_OPERATIONS = ["uploadScanResults", COMPLETE_SCAN_OPERATION] as const;

const evidenceOperations: ReadonlySet<string> = new Set(EVIDENCE_OPERATIONS);

/** Whether an event of this operation on a resource is filed as evidence. */
export const isEvidenceOperation = (operation: string): boolean => evidenceOperations.has(operation);

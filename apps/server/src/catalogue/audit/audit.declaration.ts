import {
  AuditCheckpointViewSchema,
  AuditProofBundleSchema,
  CREDIT_PRICES,
  EvidenceQuerySchema,
  EvidenceReportSchema,
} from "@hcs/protocol";
import { z } from "zod";
import { declareOperation } from "../../operations/operation.js";

export const latestCheckpointDeclaration = declareOperation({
  id: "getLatestAuditCheckpoint",
  group: "b",
  access: { rule: "any_key" },
  example: {},
  summary: "The audit log's latest signed checkpoint",
  description:
    "The log's size and RFC 9162 tree head as a C2SP tlog-checkpoint signed by the log's Ed25519 key (a signed " +
    "note), when it was signed, its anchor on chain (null until anchored or when anchoring is not configured) and " +
    "the log's verifier key (also at /.well-known/hcs-audit-log-key). 409 not_checkpointed before the first " +
    "checkpoint. Not metered.",
  input: z.strictObject({}),
  output: AuditCheckpointViewSchema.extend({ verifier_key: z.string() }),
  errors: ["not_checkpointed"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/audit/checkpoints/latest" },
});

export const auditProofDeclaration = declareOperation({
  id: "getAuditEventProof",
  group: "b",
  access: { rule: "own_account" },
  example: { id: "1" },
  summary: "One of your audit events with its inclusion proof",
  description:
    "The event as the log hashed it (audit record v1), its leaf index and hash, the RFC 9162 inclusion proof to the " +
    "latest checkpoint whose anchor is final (else the latest checkpoint covering it), that signed checkpoint with " +
    "its anchor, and the log's verifier key: a bundle `hcs-server audit verify-proof` checks with no access to the " +
    "service. Your events are those your account made and the scanner uploads and scan completions of the practices " +
    "you own (every event hipaa.evidence lists); any other id is 404. 409 not_checkpointed " +
    "while no checkpoint covers the event yet. Not metered.",
  input: z.strictObject({ id: z.string().regex(/^[1-9][0-9]{0,14}$/, "an audit event id") }),
  output: AuditProofBundleSchema,
  errors: ["not_found", "not_checkpointed"],
  inputErrors: { id: { code: "not_found", message: "no such audit event of your account" } },
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/audit/events/:id/proof" },
});

export const evidenceDeclaration = declareOperation({
  id: "getEvidence",
  method: "hipaa.evidence",
  group: "b",
  access: { rule: "owner", of: "practice", field: "npi" },
  example: { npi: "1234567893", requirement: 2 },
  summary: "Evidence per compliance requirement, with audit inclusion proofs",
  description:
    "For each of the 13 requirements (or one: `requirement`), its state and evidence as hipaa.compliance_state " +
    "gives them, and under each piece of evidence the records behind it — scanner uploads and external scans, " +
    "optionally only those assessed `since` a time — each with the audit event that logged it and that event's " +
    "proof bundle: its inclusion proof to a signed checkpoint (the latest anchored one when there is one), which " +
    "`hcs-server audit verify-proof` checks offline. A practice you own. " +
    `Costs ${CREDIT_PRICES.evidence} credits.`,
  input: EvidenceQuerySchema,
  output: EvidenceReportSchema,
  price: { kind: "metered", operation: "evidence" },
  errors: ["invalid_npi", "npi_not_found", "forbidden"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/a2a/evidence/:npi" },
});

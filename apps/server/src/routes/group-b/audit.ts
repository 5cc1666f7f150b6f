import { AuditCheckpointViewSchema, AuditProofBundleSchema } from "@hcs/protocol";
import { z } from "zod";
import { auditProofFor, latestCheckpoint } from "../../audit/proofs.js";
import { defineOperation } from "../../operations/operation.js";

export const latestCheckpointOperation = defineOperation({
  id: "getLatestAuditCheckpoint",
  group: "b",
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
  implemented: true,
  rest: { method: "get", path: "/v1/a2a/audit/checkpoints/latest" },
  async run(_input, call) {
    call.setResource("audit_log");
    return latestCheckpoint(call.deps);
  },
});

export const auditProofOperation = defineOperation({
  id: "getAuditEventProof",
  group: "b",
  summary: "One of your audit events with its inclusion proof",
  description:
    "The event as the log hashed it (audit record v1), its leaf index and hash, the RFC 9162 inclusion proof to the " +
    "latest checkpoint whose anchor is final (else the latest checkpoint covering it), that signed checkpoint with " +
    "its anchor, and the log's verifier key: a bundle `hcs-server audit verify-proof` checks with no access to the " +
    "service. Only the account that made the call can read its event; any other id is 404. 409 not_checkpointed " +
    "while no checkpoint covers the event yet. Not metered.",
  input: z.strictObject({ id: z.string().regex(/^[1-9][0-9]{0,14}$/, "an audit event id") }),
  output: AuditProofBundleSchema,
  errors: ["not_found", "not_checkpointed"],
  inputErrors: { id: { code: "not_found", message: "no such audit event of your account" } },
  readOnly: true,
  openWorld: false,
  implemented: true,
  rest: { method: "get", path: "/v1/a2a/audit/events/:id/proof" },
  async run({ id }, call) {
    call.setResource(`audit_event:${id}`);
    return auditProofFor(call.deps, Number(id), call.caller!.accountId);
  },
});

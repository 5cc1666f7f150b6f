import { ReputationSnapshotSchema } from "@hcs/protocol";
import { z } from "zod";
import { declareOperation } from "../../operations/operation.js";

export const reputationDeclaration = declareOperation({
  id: "getReputation",
  method: "hipaa.reputation",
  group: "public",
  access: { rule: "anyone" },
  example: {},
  summary: "Public reputation snapshot with a SHA-256 integrity hash",
  description:
    "Totals computed from the service's store and process (scans, practices, findings, breaches tracked, documents " +
    "generated, average response time, uptime), cached for 10 seconds. `sha256` is the SHA-256 of the canonical JSON " +
    "(sorted keys) of the other fields. Free.",
  input: z.strictObject({}),
  output: ReputationSnapshotSchema,
  errors: [],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/api/reputation", headers: { "Cache-Control": "public, max-age=10" } },
});

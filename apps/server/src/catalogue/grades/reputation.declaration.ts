import type { ReputationSnapshot } from "@hcs/protocol";
import { ReputationSnapshotSchema } from "@hcs/protocol";
import { z } from "zod";
import { declareOperation } from "../../operations/operation.js";
import { plural } from "../summary-text.js";

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
  summarize: reputationSummary,
  rest: { method: "get", path: "/api/reputation", headers: { "Cache-Control": "public, max-age=10" } },
});

export function reputationSummary(r: ReputationSnapshot): string {
  return `HCS has run ${plural(r.total_scans, "scan")} for ${plural(r.practices_served, "practice")} and detected ${plural(r.findings_detected, "finding")}; average response time ${Math.round(r.average_response_time_ms)} ms (snapshot of ${r.generated_at}, SHA-256 ${r.sha256.slice(0, 12)}…).`;
}

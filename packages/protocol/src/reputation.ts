import { z } from "zod";

/** Fields of the public reputation snapshot that the integrity hash covers (docs/api.md#discovery-and-reputation). */
export const ReputationFieldsSchema = z.object({
  total_scans: z.int().min(0),
  practices_served: z.int().min(0),
  findings_detected: z.int().min(0),
  breaches_tracked: z.int().min(0),
  documents_generated: z.int().min(0),
  average_response_time_ms: z.number().min(0),
  uptime_seconds: z.int().min(0),
  generated_at: z.iso.datetime(),
});
export type ReputationFields = z.infer<typeof ReputationFieldsSchema>;

/** GET /api/reputation: the fields plus `sha256`, the hex SHA-256 of their canonical JSON. */
export const ReputationSnapshotSchema = ReputationFieldsSchema.extend({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
}).meta({ id: "ReputationSnapshot", description: "Public reputation snapshot with an integrity hash" });
export type ReputationSnapshot = z.infer<typeof ReputationSnapshotSchema>;

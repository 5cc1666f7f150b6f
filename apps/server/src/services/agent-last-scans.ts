import type { ServiceDeps } from "./deps.js";

/**
 * When each scanner of a practice last uploaded a scan (the server's receipt time, not the scanner's own clock),
 * by agent id; an agent that never uploaded is absent. One grouped read over the practice's uploads (index
 * `scan_uploads_npi`).
 */
export async function lastScanByAgent(deps: ServiceDeps, npi: string): Promise<ReadonlyMap<string, string>> {
  const rows = await deps.store.db
    .selectFrom("scan_uploads")
    .select(["agent_id", (eb) => eb.fn.max("received_at").as("last_received_at")])
    .where("npi", "=", npi)
    .groupBy("agent_id")
    .execute();
  return new Map(rows.map((r) => [r.agent_id, String(r.last_received_at)]));
}

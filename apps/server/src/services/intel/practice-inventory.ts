import { type InventoryItem, inventoryFromDisclosure, inventoryFromFacts } from "../../intel/inventory.js";
import type { Executor } from "../../store/hot-sql.js";

/**
 * Everything a practice is known to run: each scanner's newest upload that still has its facts (software list,
 * OS), and the versions its public servers disclosed in the open external finding that lists them.
 */
export async function practiceInventory(
  db: Executor,
  npi: string,
): Promise<{ items: InventoryItem[]; hosts: number; disclosed: number }> {
  const uploads = await db
    .selectFrom("scan_uploads")
    .select(["agent_id", "summary", "facts"])
    .where("npi", "=", npi)
    .where("facts", "is not", null)
    .orderBy("completed_at", "desc")
    .execute();
  const seenAgents = new Set<string>();
  const items: InventoryItem[] = [];
  for (const u of uploads) {
    if (seenAgents.has(u.agent_id)) continue;
    seenAgents.add(u.agent_id);
    const host = (JSON.parse(u.summary) as { host?: { hostname?: string } }).host?.hostname?.toLowerCase() ?? "unknown";
    items.push(...inventoryFromFacts(JSON.parse(u.facts!) as Record<string, unknown>, host));
  }
  const disclosures = await db
    .selectFrom("findings")
    .select(["subject", "host", "evidence"])
    .where("npi", "=", npi)
    .where("check_id", "=", "app.server_disclosure.version")
    .where("resolved_at", "is", null)
    .execute();
  let disclosed = 0;
  for (const d of disclosures) {
    // Seen on the site host the scan fetched (the finding's host), as the site's KEV findings name it.
    const found = inventoryFromDisclosure(JSON.parse(d.evidence), d.host ?? d.subject);
    disclosed += found.length;
    items.push(...found);
  }
  return { items, hosts: seenAgents.size, disclosed };
}

import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Scan uploads stop keeping the raw document: a lasting summary (scanner, host, scope, times, each phase's status
 * and finding count) plus the phase facts, which are kept for an agent's newest scans only. The findings were
 * always stored as the host's assessment. Existing rows are converted one at a time (a document may be megabytes);
 * their facts are pruned when their agent next uploads.
 */
export function scanUploadSummaryMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite adds a NOT NULL column only with a default; every row is filled below and inserts always set them.
      await db.schema
        .alterTable("scan_uploads")
        .addColumn("completed_at", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema
        .alterTable("scan_uploads")
        .addColumn("summary", "text", (c) => c.notNull().defaultTo("{}"))
        .execute();
      await db.schema.alterTable("scan_uploads").addColumn("facts", "text").execute();

      const typed = db as Kysely<Tables>;
      const ids = await typed.selectFrom("scan_uploads").select("scan_id").execute();
      for (const { scan_id } of ids) {
        const row = await typed
          .selectFrom("scan_uploads")
          .select("document")
          .where("scan_id", "=", scan_id)
          .executeTakeFirstOrThrow();
        const { completed_at, summary, facts } = splitDocument(row.document);
        await typed
          .updateTable("scan_uploads")
          .set({ completed_at, summary, facts })
          .where("scan_id", "=", scan_id)
          .execute();
      }

      await db.schema.alterTable("scan_uploads").dropColumn("document").execute();
      await db.schema
        .createIndex("scan_uploads_agent")
        .on("scan_uploads")
        .columns(["agent_id", "completed_at"])
        .execute();
    },
  };
}

interface Tables {
  scan_uploads: { scan_id: string; document: string; completed_at: string; summary: string; facts: string | null };
}

interface StoredPhase {
  id: string;
  status: string;
  duration_ms: number;
  reason?: string;
  error?: unknown;
  facts?: unknown;
  findings?: unknown[];
}

// The rule of this migration, frozen here (the service's own summary may evolve): every field but the findings
// and facts, with each phase's finding count; the facts by phase id.
function splitDocument(document: string): { completed_at: string; summary: string; facts: string } {
  const doc = JSON.parse(document) as Record<string, unknown> & { completed_at: string; phases: StoredPhase[] };
  const { schema_version: _v, scan_id: _s, agent_id: _a, phases, ...rest } = doc;
  const summary = {
    ...rest,
    phases: phases.map(({ facts: _f, findings, ...phase }) => ({ ...phase, findings: findings?.length ?? 0 })),
  };
  const facts = Object.fromEntries(phases.map((p) => [p.id, p.facts ?? {}]));
  return { completed_at: doc.completed_at, summary: JSON.stringify(summary), facts: JSON.stringify(facts) };
}

import type { Kysely } from "kysely";
import type { Engine } from "./engine.js";

const PHASES = new Set([
  "discovery",
  "ports",
  "tls",
  "disk_encryption",
  "mfa",
  "access_control",
  "segmentation",
  "asset_inventory",
  "patches",
  "eol",
  "backups",
  "ephi_flow",
]);

/**
 * The internal half of a grade becomes the latest result per scanner host and phase (docs/scanner.md, "The grade"),
 * so a scan of a few phases no longer replaces what the others found:
 * - internal_results holds, per practice, host and phase, the latest completed result with its time and scope;
 * - findings.phase says which phase reported an internal finding (a later result of that phase resolves it);
 * - grades.valid_until is when the grade's first current result expires (the grade is recomputed then).
 * Existing data is carried over: each host's latest completed result of each phase from the kept upload summaries,
 * and each internal finding's phase from its check id (`<phase>.<check>`, as the scanner builds them).
 * The phase list is copied, not imported: a migration must not change when the protocol does.
 */
export function internalResultsMigration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("internal_results")
        .addColumn("npi", "text", (c) => c.notNull().references("practices.npi"))
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("phase", "text", (c) => c.notNull())
        .addColumn("assessed_at", "text", (c) => c.notNull())
        .addColumn("scan_id", "text", (c) => c.notNull())
        .addColumn("scope", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("internal_results_pk", ["npi", "subject", "phase"])
        .execute();
      await db.schema.alterTable("findings").addColumn("phase", "text").execute();
      await db.schema.alterTable("grades").addColumn("valid_until", "text").execute();

      const typed = db as Kysely<Tables>;
      const checks = await typed
        .selectFrom("findings")
        .select("check_id")
        .distinct()
        .where("source", "=", "internal")
        .execute();
      for (const { check_id } of checks) {
        const phase = check_id.split(".")[0]!;
        if (!PHASES.has(phase)) continue;
        await typed
          .updateTable("findings")
          .set({ phase })
          .where("source", "=", "internal")
          .where("check_id", "=", check_id)
          .execute();
      }

      const uploads = await typed
        .selectFrom("scan_uploads")
        .select(["scan_id", "npi", "completed_at", "received_at", "summary"])
        .orderBy("completed_at")
        .execute();
      const latest = new Map<string, Tables["internal_results"]>();
      for (const u of uploads) {
        const summary = JSON.parse(u.summary) as Summary;
        if (!summary.host?.hostname || !Array.isArray(summary.phases)) continue;
        const subject = summary.host.hostname.toLowerCase();
        // Dated as the upload was: by completion, never after it arrived.
        const at = u.completed_at < u.received_at ? u.completed_at : u.received_at;
        for (const p of summary.phases) {
          if (p.status !== "ok" || !PHASES.has(p.id)) continue;
          const key = `${u.npi}\n${subject}\n${p.id}`;
          const before = latest.get(key);
          if (before && before.assessed_at >= at) continue;
          latest.set(key, {
            npi: u.npi,
            subject,
            phase: p.id,
            assessed_at: at,
            scan_id: u.scan_id,
            scope: JSON.stringify(summary.scope ?? { mode: "host", targets: [] }),
          });
        }
      }
      for (const row of latest.values()) await typed.insertInto("internal_results").values(row).execute();
    },
  };
}

interface Summary {
  host?: { hostname?: string };
  scope?: unknown;
  phases?: { id: string; status: string }[];
}

interface Tables {
  findings: { source: string; check_id: string; phase: string | null };
  scan_uploads: { scan_id: string; npi: string; completed_at: string; received_at: string; summary: string };
  internal_results: {
    npi: string;
    subject: string;
    phase: string;
    assessed_at: string;
    scan_id: string;
    scope: string;
  };
}

import { createHash, randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * Audit record v1 (docs/audit.md): the hashed record is settled around the operation — operation, transport, actor,
 * resource, outcome, status, error code, time, request id and a random salt — before any leaf is checkpointed,
 * since a checkpointed leaf can never change. The client address and the duration move to audit_context (keyed by
 * the event id, with the time for retention and the reputation's average), which retention can prune without
 * breaking a proof. Existing events are re-hashed as v1 records (nothing was checkpointed before this migration).
 * The audit_trail view joins the two for reading.
 */
/**
 * The RFC 9162 leaf hash of an event recorded before v1, as a v1 record (docs/audit.md "The record (audit record v1)"): SHA-256
 * over 0x00 and the record's canonical JSON. Frozen here as it was when this migration was written — the live
 * serializer (services/audit.ts) has since learned an operator actor, and a migration of the hashed log must not
 * change meaning when live code does. Before v1 the error code was not recorded: null, as for a success.
 */
export function v1LeafHash(
  row: {
    readonly at: string;
    readonly request_id: string;
    readonly actor_key_id: string | null;
    readonly actor_account_id: string | null;
    readonly action: string;
    readonly transport: string;
    readonly resource: string | null;
    readonly outcome: string;
  },
  status: number,
  salt: string,
): string {
  const q = JSON.stringify;
  const record =
    `{"actor":{"account_id":${q(row.actor_account_id)},"key_id":${q(row.actor_key_id)}},"code":null,` +
    `"operation":${q(row.action)},"outcome":${q(row.outcome)},"request_id":${q(row.request_id)},` +
    `"resource":${q(row.resource)},"salt":${q(salt)},"status":${q(status)},"time":${q(row.at)},` +
    `"transport":${q(row.transport)},"v":1}`;
  return createHash("sha256").update(`\0${record}`).digest("hex");
}

export function auditRecordV1Migration(_engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("audit_events").addColumn("code", "text").execute();
      await db.schema.alterTable("audit_events").addColumn("salt", "text").execute();
      await db.schema
        .createTable("audit_context")
        .addColumn("event_id", "bigint", (c) => c.primaryKey())
        .addColumn("at", "text", (c) => c.notNull())
        .addColumn("client_ip", "text", (c) => c.notNull())
        .addColumn("duration_ms", "real", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("audit_context_at").on("audit_context").column("at").execute();

      // Existing events, in id order, a page at a time.
      type Row = {
        id: number;
        at: string;
        request_id: string;
        actor_key_id: string | null;
        actor_account_id: string | null;
        action: string;
        transport: string;
        resource: string | null;
        outcome: string;
        status: number;
        client_ip: string;
        duration_ms: number;
      };
      let after = 0;
      for (;;) {
        const { rows } = await sql<Row>`
          select id, at, request_id, actor_key_id, actor_account_id, action, transport, resource, outcome, status,
                 client_ip, duration_ms
          from audit_events where id > ${after} order by id limit 500`.execute(db);
        if (rows.length === 0) break;
        for (const row of rows) {
          const salt = randomBytes(16).toString("hex");
          const leaf = v1LeafHash(row, Number(row.status), salt);
          await sql`update audit_events set salt = ${salt}, leaf_hash = ${leaf} where id = ${row.id}`.execute(db);
          await sql`insert into audit_context (event_id, at, client_ip, duration_ms)
                    values (${row.id}, ${row.at}, ${row.client_ip}, ${Number(row.duration_ms)})`.execute(db);
        }
        after = Number(rows[rows.length - 1]!.id);
      }
      await db.schema.alterTable("audit_events").dropColumn("client_ip").execute();
      await db.schema.alterTable("audit_events").dropColumn("duration_ms").execute();
      await db.schema
        .createView("audit_trail")
        .as(
          sql`select e.*, c.client_ip, c.duration_ms from audit_events e left join audit_context c on c.event_id = e.id` as never,
        )
        .execute();
    },
  };
}

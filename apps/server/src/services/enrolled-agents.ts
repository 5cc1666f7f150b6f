import { type AgentState, type AgentView, AgentViewSchema, oneShotAgentExpiresAt } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import type { AgentsTable } from "../store/schema.js";
import type { AuditInTransaction } from "./audit.js";
import { iso, type ServiceDeps } from "./deps.js";
import { assertManages, checkedFilter, type EnrolmentActor, type EnrolmentFilter } from "./enrolment-scope.js";

/** When a one-shot agent stops being allowed to upload (null: an installed scanner, which never expires). */
export function agentExpiresAt(row: Pick<AgentsTable, "ephemeral" | "registered_at" | "last_seen_at">): string | null {
  return row.ephemeral === 1 ? oneShotAgentExpiresAt(row.registered_at, row.last_seen_at) : null;
}

/** Whether the agent may upload at `now`: revoked wins, then expired (one-shot agents past their lifetime). */
export function agentState(
  row: Pick<AgentsTable, "ephemeral" | "registered_at" | "last_seen_at" | "revoked_at">,
  now: Date,
): AgentState {
  if (row.revoked_at !== null) return "revoked";
  const expiresAt = agentExpiresAt(row);
  return expiresAt !== null && Date.parse(expiresAt) <= now.getTime() ? "expired" : "active";
}

// The public key is left out: it identifies nothing the agent id does not, and the view stays free of key material
// (parsing also strips any field the wire schema does not name).
function agentView(row: AgentsTable, now: Date): AgentView {
  return AgentViewSchema.parse({
    agent_id: row.id,
    npi: row.npi,
    account_id: row.account_id,
    deploy_token_id: row.deploy_token_id,
    hostname: row.hostname,
    platform: row.platform,
    os_release: row.os_release,
    scanner_version: row.scanner_version,
    ephemeral: row.ephemeral === 1,
    registered_at: row.registered_at,
    last_seen_at: row.last_seen_at,
    revoked_at: row.revoked_at,
    expires_at: agentExpiresAt(row),
    state: agentState(row, now),
  });
}

/** Registered scanners of the practices the filter covers, oldest first, revoked ones included. */
export async function listAgents(
  deps: ServiceDeps,
  actor: EnrolmentActor,
  filter: EnrolmentFilter,
): Promise<AgentView[]> {
  const { npi, accountId } = await checkedFilter(deps, actor, filter);
  let q = deps.store.db.selectFrom("agents").selectAll().orderBy("registered_at").orderBy("id");
  if (npi !== undefined) q = q.where("npi", "=", npi);
  if (accountId !== undefined)
    q = q.where("npi", "in", deps.store.db.selectFrom("practices").select("npi").where("account_id", "=", accountId));
  const now = deps.now();
  return (await q.execute()).map((row) => agentView(row, now));
}

/**
 * Revokes a scanner agent (idempotent: it keeps its first revocation time). Its uploads are refused from then on
 * with 403 agent_revoked; the host needs a new deploy token to enrol again. `auditIn` (an operator command's event)
 * is written in the same transaction, also when the agent was revoked already.
 */
export async function revokeAgent(
  deps: ServiceDeps,
  actor: EnrolmentActor,
  agentId: string,
  auditIn?: AuditInTransaction<AgentsTable>,
): Promise<AgentView> {
  const find = () => deps.store.db.selectFrom("agents").selectAll().where("id", "=", agentId).executeTakeFirst();
  const row = await find();
  if (!row) throw new ServiceError("not_found", `no scanner agent ${agentId}`);
  await assertManages(deps, actor, row.npi);
  if (row.revoked_at !== null && !auditIn) return agentView(row, deps.now());
  await deps.store.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("agents")
      .set({ revoked_at: iso(deps.now()) })
      .where("id", "=", agentId)
      .where("revoked_at", "is", null)
      .execute();
    await auditIn?.(trx, row);
  });
  return agentView((await find())!, deps.now());
}

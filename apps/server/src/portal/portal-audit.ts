import { type AuditInTransaction, type AuditOutcome, recordAuditEvent } from "../services/audit.js";
import { iso } from "../services/deps.js";

/**
 * The audit operations of the portal (docs/portal.md, "Audit"): sign-ins, lock-outs and every change a person
 * makes there (refused sign-in attempts are counted in metrics instead). The operator's invitation is `operator.users.invite` (services/operator-audit.ts).
 */
export type PortalOperation =
  | "portal.sign-in"
  | "portal.sign-in.second-factor"
  | "portal.sign-in.locked"
  | "portal.sign-out"
  | "portal.session.expired"
  | "portal.invite.accept"
  | "portal.mfa.enrol"
  | "portal.users.invite"
  | "portal.webhook-secret.rotate";

/** Who acted: the portal user (null when a sign-in named nobody known) and their account. */
export interface PortalActor {
  readonly userId: string | null;
  readonly accountId: string | null;
}

export interface PortalAuditEntry {
  readonly requestId: string;
  readonly now: () => Date;
  readonly actor: PortalActor;
  readonly operation: PortalOperation;
  readonly resource: string | null;
  readonly outcome?: AuditOutcome;
  readonly status?: number;
  readonly code?: string | null;
}

/**
 * The audit hook of a portal change (transport `portal`), written in the change's transaction. The person is in
 * the hashed record as `actor.operator` = `user:<id>` (as an operator command names its OS user), so who changed
 * an account is as tamper-evident as what changed; a refused sign-in of an unknown email names no one.
 */
export function portalAudit<R>(entry: Omit<PortalAuditEntry, "resource">, resource: (done: R) => string | null) {
  const hook: AuditInTransaction<R> = (trx, done) =>
    recordAuditEvent(trx, {
      at: iso(entry.now()),
      request_id: entry.requestId,
      actor_key_id: null,
      actor_account_id: entry.actor.accountId,
      actor_operator: entry.actor.userId ? `user:${entry.actor.userId}` : null,
      action: entry.operation,
      transport: "portal",
      resource: resource(done),
      outcome: entry.outcome ?? "success",
      status: entry.status ?? 200,
      code: entry.code ?? null,
    });
  return hook;
}

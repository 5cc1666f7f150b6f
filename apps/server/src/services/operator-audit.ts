import { type AuditInTransaction, recordAuditEvent } from "./audit.js";
import { iso } from "./deps.js";

/**
 * The audit operations of operator commands: `operator.` followed by the command's words (`hcs-server keys revoke`
 * is `operator.keys.revoke`; `accounts webhook-secret` is `.show`, or `.rotate` with --rotate). See docs/audit.md.
 */
export type OperatorOperation =
  | "operator.accounts.create"
  | "operator.accounts.set-plan"
  | "operator.credits.grant"
  | "operator.accounts.webhook-secret.show"
  | "operator.accounts.webhook-secret.rotate"
  | "operator.keys.create"
  | "operator.keys.revoke"
  | "operator.practices.add"
  | "operator.practices.set-state"
  | "operator.agents.revoke"
  | "operator.deploy-tokens.revoke"
  | "operator.data.import"
  | "operator.claims.override"
  | "operator.claims.revoke"
  | "operator.users.invite"
  | "operator.audit.rotate-key";

/**
 * One run of an operator command: the OS user who ran it (null only when code, not a person, started the server
 * that bootstraps: tests, the lab), and the request id its events share.
 */
export interface OperatorRun {
  readonly operator: string | null;
  readonly requestId: string;
  readonly now: () => Date;
}

/**
 * What an operator command's change touched: the account it affected (null for service-wide data such as an
 * imported feed) and the resource (`key:<id>`, `feed:kev`…).
 */
export interface OperatorTarget {
  readonly accountId: string | null;
  readonly resource: string;
}

/** The target of a change to the account itself. */
export const onAccount = (accountId: string): OperatorTarget => ({ accountId, resource: `account:${accountId}` });

/** The target of a change to one of the account's keys, by the key's id. */
export const onKeyOf =
  (accountId: string) =>
  (keyId: string): OperatorTarget => ({ accountId, resource: `key:${keyId}` });

/**
 * The audit event of an operator command's change (transport `cli`), to be written in the change's transaction:
 * on the affected account (no key: the operator holds none), naming the OS user who ran it. A command that fails
 * rolls its transaction back, event included: it leaves no event, as it leaves no change.
 */
export function operatorAudit<R>(
  run: OperatorRun,
  operation: OperatorOperation,
  target: (done: R) => OperatorTarget,
): AuditInTransaction<R> {
  return (trx, done) => {
    const { accountId, resource } = target(done);
    return recordAuditEvent(trx, {
      at: iso(run.now()),
      request_id: run.requestId,
      actor_key_id: null,
      actor_account_id: accountId,
      actor_operator: run.operator,
      action: operation,
      transport: "cli",
      resource,
      outcome: "success",
      status: 200,
      code: null,
    });
  };
}

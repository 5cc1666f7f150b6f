import { CREDIT_PRICES, type ErrorCode } from "@hcs/protocol";
import { describeAccess, OWNED_RECORDS } from "./access.js";
import type { OperationDeclaration } from "./operation.js";

/** The errors the call pipeline itself may answer for an operation (credentials, limits, credits, transport). */
export function pipelineErrors(op: OperationDeclaration): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (op.group === "a" || op.group === "b") codes.push("missing_credentials", "invalid_credentials", "key_revoked");
  if (op.group === "a") codes.push("plan_required");
  if (op.access.rule === "owner") {
    const rule = OWNED_RECORDS[op.access.of];
    codes.push(rule.missing.code, rule.others.code);
  }
  if (op.group !== "public") codes.push("rate_limited");
  if (op.price) codes.push("insufficient_credits");
  if (op.rest?.method === "post" || op.rest?.method === "patch")
    codes.push("invalid_json", "unsupported_media_type", "payload_too_large");
  codes.push(op.rest?.method === "get" ? "invalid_query" : "invalid_body");
  return codes;
}

/** What a call costs, in words for documents ("Costs 25 credits", "Free"). */
export function priceText(op: OperationDeclaration): string {
  const price = op.price;
  if (!price) return "Free";
  if (price.kind === "computed") return `Costs ${price.describe}`;
  return `Costs ${CREDIT_PRICES[price.operation]} credits`;
}

/** The credits of one call as a number when it is fixed, for the agent card's price list (null when it varies). */
export function fixedCredits(op: OperationDeclaration): number | null {
  const price = op.price;
  if (!price) return 0;
  return price.kind === "computed" ? null : CREDIT_PRICES[price.operation];
}

/** What another account's key gets from an operation, in words for documents (docs/security.md's table). */
export function othersAnswer(op: OperationDeclaration): string {
  const access = op.access;
  switch (access.rule) {
    case "owner": {
      const code = OWNED_RECORDS[access.of].others.code;
      return `\`${code}\``;
    }
    case "own_account":
      return "only its own records";
    case "any_key":
      return "the same public answer";
    default:
      return "the same answer";
  }
}

/** The credential an operation's calls present, in words for documents. */
export function credentialOf(op: OperationDeclaration): string {
  if (op.access.rule === "credential" && op.access.credential !== "none")
    return op.access.credential === "deploy_token" ? "deploy token" : "agent signature";
  // No REST twin and no agent method: only the portal's bridge invokes it, for the signed-in person's account.
  if (!op.rest && !op.method) return "a portal session (no key)";
  switch (op.group) {
    case "a":
      return "Group A key (Professional, Enterprise)";
    case "b":
      return "Group B key";
    default:
      return "none";
  }
}

/**
 * One row per operation of docs/security.md's access table: the operation, its REST route, its agent method, the
 * credential, whose answer it is and what another account's key gets. The table is tested against this (docs.test.ts).
 */
export function accessTableRows(operations: readonly OperationDeclaration[]): string[][] {
  return operations.map((op) => [
    `\`${op.id}\``,
    op.rest ? `\`${op.rest.method.toUpperCase()} ${op.rest.path.replace(/:([a-z_]+)/g, "{$1}")}\`` : "—",
    op.method ? `\`${op.method}\`` : "—",
    credentialOf(op),
    describeAccess(op.access),
    othersAnswer(op),
  ]);
}

/** Whether a text already names a price ("Costs 25 credits", "Free to list; 25 credits per document", "Free."). */
const statesPrice = (text: string) => /\bcredits?\b|\bFree\b/.test(text);

/**
 * The operation's description with its price stated exactly once: its own words when they name the price (they
 * often say more — when it is charged, what is refunded), else {@link priceText} after them.
 */
export function describedWithPrice(op: OperationDeclaration): string {
  return statesPrice(op.description) ? op.description : `${op.description} ${priceText(op)}.`;
}

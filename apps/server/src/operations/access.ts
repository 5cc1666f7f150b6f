import type { ErrorCode } from "@hcs/protocol";
import { ServiceError } from "../errors.js";
import { liveClaimOf } from "../services/claims/claims.js";
import type { ServiceDeps } from "../services/deps.js";

/**
 * Whose answer an operation gives, declared once in its declaration and enforced by the pipeline (invoke.ts) after
 * the input is validated and before the handler runs; docs/security.md lists the rule of every operation, and the
 * authorization matrix test (operations/access-matrix.test.ts) holds every transport to it.
 *
 * - `anyone`: no key needed (public documents, the reputation snapshot).
 * - `any_key`: any valid key of the operation's group. What it answers is **public by NPI** — the grade record
 *   (score, grade, categories, coverage, caps, scan date) — or tied to no practice (the control catalogue, the
 *   breach portal by name). Nothing from a practice's internal scanner, findings or records is in such an answer.
 * - `owner`: the record the input names (`field`) must belong to the caller's account (a practice's owner is the
 *   account of its proved claim, docs/onboarding.md): a practice by NPI, a claim, a job, an
 *   incident, a scanner agent, a deploy token. Anything from the internal scanner, findings, evidence, threats,
 *   probability factors built from internal facts, policies, records. Another account gets the record kind's
 *   refusal (`forbidden`, or `not_found` where even the record's existence is private) and is charged nothing.
 *   `optional`: the field may be omitted; the handler then acts on the caller's own (the account's only practice).
 * - `own_account`: acts only on records of the caller's account, found by the service under the caller's account
 *   id (the job list, an audit event's proof): another account's records are never found.
 * - `credential`: authenticated by something other than an API key — a deploy token (scanner registration), an
 *   agent's signature (scan upload) — or by nothing at all, counted per client address (free-key issuance).
 */
export type Access =
  | { readonly rule: "anyone" }
  | { readonly rule: "any_key" }
  | {
      readonly rule: "owner";
      readonly of: OwnedRecord;
      readonly field: string;
      readonly optional?: boolean;
      /**
       * A practice's claimant (a live claim, not proved yet) passes too: the operation then acts on the public
       * surface only (a scan of the claimed domain answers its public grade). Only for `of: "practice"`.
       */
      readonly claimants?: boolean;
    }
  | { readonly rule: "own_account" }
  | { readonly rule: "credential"; readonly credential: "deploy_token" | "agent_signature" | "none" };

/** The kinds of record an account owns, and how the pipeline finds the owner of one. */
export type OwnedRecord = "practice" | "claim" | "job" | "incident" | "agent" | "deploy_token";

interface OwnedRecordRule {
  /** The owning account of the record with this id, or null when there is no such record. */
  ownerOf(deps: ServiceDeps, id: string): Promise<string | null>;
  /** The answer for an id that names no record. */
  readonly missing: { readonly code: ErrorCode; message(id: string): string };
  /**
   * The answer for another account's record: `forbidden` where the record's existence is no secret (practices are
   * public by NPI; job, agent and token ids are unguessable), `not_found` where it is (an incident).
   */
  readonly others: { readonly code: ErrorCode; readonly message: string };
}

const practiceOwner = async (deps: ServiceDeps, npi: string) =>
  (await deps.store.db.selectFrom("practices").select("account_id").where("npi", "=", npi).executeTakeFirst())
    ?.account_id ?? null;

/** The owner of the practice a record (an incident, an agent, a deploy token) belongs to. */
async function ownerThroughPractice(
  deps: ServiceDeps,
  table: "incidents" | "agents" | "deploy_tokens",
  id: string,
): Promise<string | null> {
  const row = await deps.store.db
    .selectFrom(table)
    .innerJoin("practices", "practices.npi", `${table}.npi`)
    .select("practices.account_id")
    .where(`${table}.id`, "=", id)
    .executeTakeFirst();
  return row?.account_id ?? null;
}

/**
 * How each owned record's owner is found. Agents, deploy tokens and incidents belong to whoever owns their practice
 * now; a job to the account that dispatched (and paid for) it.
 */
export const OWNED_RECORDS: Readonly<Record<OwnedRecord, OwnedRecordRule>> = {
  practice: {
    ownerOf: practiceOwner,
    missing: { code: "npi_not_found", message: (npi) => `no practice with NPI ${npi} is known to this service` },
    others: { code: "forbidden", message: "this practice belongs to another account" },
  },
  claim: {
    ownerOf: async (deps, id) =>
      (await deps.store.db.selectFrom("practice_claims").select("account_id").where("id", "=", id).executeTakeFirst())
        ?.account_id ?? null,
    // Who claims what is private to the claimant: another account's claim is answered as an unknown one.
    missing: { code: "not_found", message: () => "no such claim of your account" },
    others: { code: "not_found", message: "no such claim of your account" },
  },
  job: {
    ownerOf: async (deps, id) =>
      (await deps.store.db.selectFrom("jobs").select("account_id").where("id", "=", id).executeTakeFirst())
        ?.account_id ?? null,
    missing: { code: "job_not_found", message: (id) => `no job ${id}` },
    // A job id is private: another account's job is answered as an unknown one, on every door (poll, cancel, report,
    // A2A GetTask).
    others: { code: "job_not_found", message: "no such job of your account" },
  },
  incident: {
    ownerOf: (deps, id) => ownerThroughPractice(deps, "incidents", id),
    missing: { code: "not_found", message: () => "no such incident of your account" },
    others: { code: "not_found", message: "no such incident of your account" },
  },
  agent: {
    ownerOf: (deps, id) => ownerThroughPractice(deps, "agents", id),
    missing: { code: "not_found", message: () => "no such scanner agent" },
    others: { code: "forbidden", message: "this scanner agent belongs to another account's practice" },
  },
  deploy_token: {
    ownerOf: (deps, id) => ownerThroughPractice(deps, "deploy_tokens", id),
    missing: { code: "not_found", message: () => "no such deploy token" },
    others: { code: "forbidden", message: "this deploy token belongs to another account's practice" },
  },
};

/**
 * Refuses a call whose input names a record of another account (or no record), as its access rule says. Runs after
 * the input is validated, before the handler: a refused call is charged nothing and runs nothing.
 */
export async function enforceAccess(
  deps: ServiceDeps,
  access: Access,
  input: unknown,
  accountId: string | null,
): Promise<void> {
  if (access.rule !== "owner") return;
  const id = (input as Record<string, unknown> | null)?.[access.field];
  if (id === undefined && access.optional) return;
  if (typeof id !== "string") throw new Error(`access rule names input field ${access.field}, which is not a string`);
  const rule = OWNED_RECORDS[access.of];
  const owner = await rule.ownerOf(deps, id);
  if (owner === null) throw new ServiceError(rule.missing.code, rule.missing.message(id));
  if (owner === accountId) return;
  // Ownership is the proved claim's (practices.account_id is written only by a proof, an operator's override or
  // registration, and a lapse); a claimant is let through only where the declaration says so.
  if (
    access.claimants &&
    access.of === "practice" &&
    accountId !== null &&
    (await liveClaimOf(deps.store.db, id, accountId))
  )
    return;
  throw new ServiceError(rule.others.code, rule.others.message);
}

/** The rule in a few words, for documents (docs/security.md's table). */
export function describeAccess(access: Access): string {
  switch (access.rule) {
    case "anyone":
      return "anyone";
    case "any_key":
      return "public: any key";
    case "owner":
      return `the ${access.of.replace("_", " ")}'s owner${access.optional ? " (when one is named; else the caller's own)" : ""}${access.claimants ? ", or a claimant (public surface only)" : ""}`;
    case "own_account":
      return "the caller's own records only";
    case "credential":
      return access.credential === "deploy_token"
        ? "the holder of a deploy token"
        : access.credential === "agent_signature"
          ? "an enrolled agent, by its signature"
          : "anyone, counted per client address";
  }
}

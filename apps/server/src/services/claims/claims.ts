import { randomBytes, randomUUID } from "node:crypto";
import { type Claim, ClaimDomainSchema, parseNpi } from "@hcs/protocol";
import type { Transaction } from "kysely";
import { isDeactivated } from "../../directory/provider.js";
import { ServiceError } from "../../errors.js";
import type { PracticeClaimsTable } from "../../store/directory-schema.js";
import type { Executor } from "../../store/hot-sql.js";
import type { Database } from "../../store/schema.js";
import { newId } from "../../util/ids.js";
import { newWebhookSecret } from "../accounts.js";
import { type LocalAuditEvent, recordAuditEvent } from "../audit.js";
import { iso, type ServiceDeps } from "../deps.js";
import { candidateDomains, directoryRow } from "../directory/lookup.js";
import { moveOwnership } from "./ownership.js";
import {
  checkProof,
  type ProofIO,
  type ProofOutcome,
  proofFileUrl,
  proofTxtName,
  proofValue,
  provedBy,
} from "./proof.js";

/**
 * The service's own account that holds every practice no one has proved control of yet (added by a claim, or left
 * by a lapsed proof). It has no key, no portal user and no credits, and none can be issued to it: no caller is ever
 * its owner, so nothing owner-only of such a practice reaches anyone (docs/onboarding.md#who-owns-a-practice).
 */
export const DIRECTORY_ACCOUNT_ID = "acct_directory";

/** How often the worker's process looks for proved claims due for a re-check. */
export const CLAIM_RECHECK_INTERVAL_MS = 3_600_000;
/** A proved claim is re-checked when its last successful check is older than this. */
export const PROOF_RECHECK_AFTER_MS = 24 * 3_600_000;
/** A proved claim whose proof re-checks have not found for this long lapses: its account is no longer the owner. */
export const PROOF_GRACE_MS = 72 * 3_600_000;

/** Claims that may still become the owner (a claimant's standing: public scans, nothing owner-only). */
const LIVE: readonly PracticeClaimsTable["status"][] = ["pending", "contested"];

/** Creates the directory account once (idempotent; any process may). */
export async function ensureDirectoryAccount(deps: ServiceDeps): Promise<void> {
  await deps.store.db
    .insertInto("accounts")
    .values({
      id: DIRECTORY_ACCOUNT_ID,
      name: "HCS directory (practices no one has proved control of)",
      plan: "free",
      tier: "standard",
      credits: 0,
      email: null,
      webhook_secret_enc: deps.secrets.seal(newWebhookSecret()),
      created_at: iso(deps.now()),
    })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

/** Refuses the directory account wherever an account is given credentials or people (keys, users, credits). */
export function refuseDirectoryAccount(accountId: string): void {
  if (accountId === DIRECTORY_ACCOUNT_ID)
    throw new ServiceError("forbidden", "the directory account holds unclaimed practices and cannot be given access");
}

/** What a claim allows its account now, in words. */
function accessText(c: PracticeClaimsTable): string {
  switch (c.status) {
    case "proved":
      return "owner: every operation on the practice";
    case "pending":
    case "contested":
      return "claimant: public answers only (the grade, external scans of the claimed domain's public surface); prove control to read findings, evidence, threats, deploy tokens and Group A";
    default:
      return "none: this claim has ended";
  }
}

/** A stored claim as the API shows it (ClaimSchema). */
export async function claimView(db: Executor, c: PracticeClaimsTable): Promise<Claim> {
  const [row, domains] = await Promise.all([directoryRow(db, c.npi), candidateDomains(db, c.npi)]);
  const lapsesAt = c.status === "proved" && c.failing_since ? iso(Date.parse(c.failing_since) + PROOF_GRACE_MS) : null;
  return {
    claim_id: c.id,
    npi: parseNpi(c.npi),
    practice_name: row?.name ?? null,
    domain: c.domain,
    status: c.status,
    owner: c.status === "proved",
    method: (c.method as Claim["method"]) ?? null,
    timeline: {
      created_at: c.created_at,
      proved_at: c.proved_at,
      last_checked_at: c.last_checked_at,
      failing_since: c.failing_since,
      lapses_at: lapsesAt,
    },
    challenge: {
      token: c.token,
      dns_txt: { name: proofTxtName(c.domain), value: proofValue(c.token) },
      well_known: { url: proofFileUrl(c.domain), body: proofValue(c.token) },
    },
    last_check: c.last_check ? (JSON.parse(c.last_check) as ProofOutcome) : null,
    candidate_domains: domains,
    access: accessText(c),
  };
}

/** A claim of the account's, or not_found (another account's claim is answered as an unknown one). */
export async function claimOfAccount(db: Executor, claimId: string, accountId: string): Promise<PracticeClaimsTable> {
  const c = await db.selectFrom("practice_claims").selectAll().where("id", "=", claimId).executeTakeFirst();
  if (!c || c.account_id !== accountId) throw new ServiceError("not_found", "no such claim of your account");
  return c;
}

/** The account's claims, newest first. */
export async function listClaims(db: Executor, accountId: string): Promise<Claim[]> {
  const rows = await db
    .selectFrom("practice_claims")
    .selectAll()
    .where("account_id", "=", accountId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(200)
    .execute();
  return Promise.all(rows.map((c) => claimView(db, c)));
}

/** The account's live claim (pending or contested) on the practice: a claimant's standing for a public scan. */
export function liveClaimOf(db: Executor, npi: string, accountId: string): Promise<PracticeClaimsTable | undefined> {
  return db
    .selectFrom("practice_claims")
    .selectAll()
    .where("npi", "=", npi)
    .where("account_id", "=", accountId)
    .where("status", "in", [...LIVE])
    .orderBy("created_at", "desc")
    .executeTakeFirst();
}

/** An audit event of a change a claim brought about beyond the call itself (another account's claim lapsing). */
function claimEvent(c: PracticeClaimsTable, action: string, at: string, requestId: string): LocalAuditEvent {
  return {
    at,
    request_id: requestId,
    actor_key_id: null,
    actor_account_id: c.account_id,
    actor_operator: null,
    action,
    transport: "worker",
    resource: `claim:${c.id}`,
    outcome: "success",
    status: 200,
    code: null,
  };
}

/** The practice's current owner's proved claim, if any. */
function provedClaimOf(db: Executor, npi: string): Promise<PracticeClaimsTable | undefined> {
  return db
    .selectFrom("practice_claims")
    .selectAll()
    .where("npi", "=", npi)
    .where("status", "=", "proved")
    .executeTakeFirst();
}

/**
 * Adds a practice by NPI and domain: a pending claim whose challenge the caller publishes. The NPI must be in the
 * directory and active; the practice's name and state come from there. A practice no one registered yet is created,
 * held by the directory account until someone proves control. Asking again for the same domain answers the same
 * claim; for another domain, the pending claim is replaced (the account's proved claim, if any, stands).
 */
export async function createClaim(
  deps: ServiceDeps,
  accountId: string,
  input: { npi: string; domain: string },
): Promise<Claim> {
  const domain = ClaimDomainSchema.safeParse(input.domain);
  if (!domain.success) throw new ServiceError("invalid_body", `domain: ${domain.error.issues[0]!.message}`);
  const db = deps.store.db;
  const entry = await directoryRow(db, input.npi);
  if (!entry)
    throw new ServiceError(
      "npi_not_found",
      `NPI ${input.npi} is not in the NPPES directory this service holds; a practice is added from the directory`,
    );
  if (isDeactivated(entry))
    throw new ServiceError(
      "conflict",
      `NPI ${input.npi} was deactivated on ${entry.deactivated_on}: it cannot be claimed`,
    );
  await ensureDirectoryAccount(deps);
  const at = iso(deps.now());
  const claim = await db.transaction().execute(async (trx) => {
    const same = await trx
      .selectFrom("practice_claims")
      .selectAll()
      .where("npi", "=", input.npi)
      .where("account_id", "=", accountId)
      .where("domain", "=", domain.data)
      .where("status", "in", ["pending", "contested", "proved"])
      .executeTakeFirst();
    if (same) return same;
    await trx
      .updateTable("practice_claims")
      .set({ status: "superseded", ended_at: at })
      .where("npi", "=", input.npi)
      .where("account_id", "=", accountId)
      .where("status", "in", [...LIVE])
      .execute();
    const practice = await trx.selectFrom("practices").select("npi").where("npi", "=", input.npi).executeTakeFirst();
    if (!practice) {
      const state = entry.state && /^[A-Z]{2}$/.test(entry.state) ? entry.state : null;
      await trx
        .insertInto("practices")
        .values({
          npi: input.npi,
          account_id: DIRECTORY_ACCOUNT_ID,
          name: entry.name ?? `NPI ${input.npi}`,
          domain: domain.data,
          website: `https://${domain.data}/`,
          created_at: at,
          state,
        })
        .execute();
    }
    const row: PracticeClaimsTable = {
      id: newId("clm"),
      npi: input.npi,
      account_id: accountId,
      domain: domain.data,
      token: randomBytes(18).toString("base64url"),
      status: "pending",
      method: null,
      created_at: at,
      proved_at: null,
      last_checked_at: null,
      failing_since: null,
      ended_at: null,
      last_check: null,
      note: null,
    };
    await trx.insertInto("practice_claims").values(row).execute();
    return row;
  });
  return claimView(db, claim);
}

/**
 * Makes a claim the practice's owner in `trx`: the claim proved, the account's other proved claim on the practice
 * superseded, and the practice held by the account, with the claim's domain as the one its scans examine.
 */
async function becomeOwner(
  trx: Transaction<Database>,
  c: PracticeClaimsTable,
  method: string,
  at: string,
  check: ProofOutcome | null,
): Promise<void> {
  await trx
    .updateTable("practice_claims")
    .set({ status: "superseded", ended_at: at })
    .where("npi", "=", c.npi)
    .where("status", "=", "proved")
    .where("id", "!=", c.id)
    .execute();
  await trx
    .updateTable("practice_claims")
    .set({
      status: "proved",
      method,
      proved_at: at,
      last_checked_at: at,
      failing_since: null,
      ...(check ? { last_check: JSON.stringify(check) } : {}),
    })
    .where("id", "=", c.id)
    .execute();
  await moveOwnership(trx, c.npi, c.account_id, at, { domain: c.domain });
}

/** Ends a proved claim whose proof is gone: the practice goes back to the directory account. */
async function lapse(trx: Transaction<Database>, c: PracticeClaimsTable, at: string, requestId: string): Promise<void> {
  await trx.updateTable("practice_claims").set({ status: "lapsed", ended_at: at }).where("id", "=", c.id).execute();
  await moveOwnership(trx, c.npi, DIRECTORY_ACCOUNT_ID, at, { from: c.account_id });
  await recordAuditEvent(trx, claimEvent(c, "claim.lapsed", at, requestId));
}

/**
 * Checks the claim's proof now, through the external scan's resolver and HTTP client. Found, the claim becomes the
 * practice's owner — unless another account owns it by a proof that still holds (checked now too): then both
 * proofs stand, the claim is `contested`, and the operator decides (`hcs-server claims override`). The other
 * account's proof gone, its claim lapses and this one takes over. Not found, the claim stays as it was, with what
 * the check saw. A proved claim checked again renews its proof.
 */
export async function verifyClaim(
  deps: ServiceDeps,
  io: ProofIO,
  accountId: string,
  claimId: string,
  requestId: string = randomUUID(),
): Promise<Claim> {
  const db = deps.store.db;
  const c = await claimOfAccount(db, claimId, accountId);
  if (!["pending", "contested", "proved"].includes(c.status))
    throw new ServiceError("conflict", `this claim has ended (${c.status}); add the practice again to make a new one`);
  // The operator's word is not a published proof: there is nothing to look for, and it stands until revoked.
  if (c.method === "operator") return claimView(db, c);
  const outcome = await checkProof(io, c.domain, c.token, deps.now());
  const method = provedBy(outcome);
  const at = outcome.at;
  if (!method) {
    await db
      .updateTable("practice_claims")
      .set({
        last_check: JSON.stringify(outcome),
        ...(c.status === "proved" ? { failing_since: c.failing_since ?? at } : {}),
      })
      .where("id", "=", c.id)
      .execute();
    return claimView(db, (await claimOfAccount(db, claimId, accountId))!);
  }
  if (c.status === "proved") {
    await db
      .updateTable("practice_claims")
      .set({ last_checked_at: at, failing_since: null, method, last_check: JSON.stringify(outcome) })
      .where("id", "=", c.id)
      .execute();
    return claimView(db, await claimOfAccount(db, claimId, accountId));
  }
  const current = await provedClaimOf(db, c.npi);
  const rival = current && current.account_id !== accountId ? current : null;
  // The owner's proof is checked now: a rival that still proves control keeps the practice until the operator decides.
  const rivalHolds =
    rival !== null &&
    (rival.method === "operator" || provedBy(await checkProof(io, rival.domain, rival.token, deps.now())) !== null);
  await db.transaction().execute(async (trx) => {
    if (rival && rivalHolds) {
      await trx
        .updateTable("practice_claims")
        .set({ status: "contested", last_check: JSON.stringify(outcome), last_checked_at: at })
        .where("id", "=", c.id)
        .execute();
      await recordAuditEvent(trx, claimEvent(rival, "claim.contested", at, requestId));
      return;
    }
    if (rival) await lapse(trx, rival, at, requestId);
    await becomeOwner(trx, c, method, at, outcome);
  });
  return claimView(db, await claimOfAccount(db, claimId, accountId));
}

/** What a re-check round did. */
export interface RecheckReport {
  readonly checked: number;
  readonly renewed: number;
  readonly failing: number;
  readonly lapsed: number;
}

/**
 * Re-checks every proved claim whose last successful check is older than {@link PROOF_RECHECK_AFTER_MS} (the
 * operator's overrides excepted: their word stands until revoked). Found, the proof is renewed; not found, the
 * claim is failing from now, and lapses once it has failed for {@link PROOF_GRACE_MS} — the practice goes back to
 * the directory account, and the lapse is audited. Run by the worker every hour and by `hcs-server claims recheck`.
 */
export async function recheckClaims(deps: ServiceDeps, io: ProofIO, limit = 500): Promise<RecheckReport> {
  const db = deps.store.db;
  const now = deps.now();
  const due = await db
    .selectFrom("practice_claims")
    .selectAll()
    .where("status", "=", "proved")
    .where("method", "!=", "operator")
    .where((eb) =>
      eb.or([
        eb("last_checked_at", "is", null),
        eb("last_checked_at", "<", iso(now.getTime() - PROOF_RECHECK_AFTER_MS)),
      ]),
    )
    .orderBy("last_checked_at")
    .limit(limit)
    .execute();
  const report = { checked: 0, renewed: 0, failing: 0, lapsed: 0 };
  for (const c of due) {
    report.checked++;
    const outcome = await checkProof(io, c.domain, c.token, now);
    const method = provedBy(outcome);
    const at = outcome.at;
    if (method) {
      report.renewed++;
      await db
        .updateTable("practice_claims")
        .set({ last_checked_at: at, failing_since: null, method, last_check: JSON.stringify(outcome) })
        .where("id", "=", c.id)
        .execute();
      continue;
    }
    const since = c.failing_since ?? at;
    if (now.getTime() - Date.parse(since) >= PROOF_GRACE_MS) {
      report.lapsed++;
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("practice_claims")
          .set({ last_check: JSON.stringify(outcome) })
          .where("id", "=", c.id)
          .execute();
        await lapse(trx, c, at, randomUUID());
      });
    } else {
      report.failing++;
      await db
        .updateTable("practice_claims")
        .set({ failing_since: since, last_check: JSON.stringify(outcome) })
        .where("id", "=", c.id)
        .execute();
    }
  }
  return report;
}

/**
 * The operator's decision (`hcs-server claims override`): the account owns the practice by the operator's word — a
 * proved claim of method `operator`, for the domain given (else the practice's). Every other claim on the practice
 * ends (a rival's proved or contested claim is superseded). `auditIn` is written in the same transaction.
 */
export async function overrideClaim(
  deps: ServiceDeps,
  input: { npi: string; accountId: string; domain?: string; reason: string },
  auditIn?: (trx: Transaction<Database>, claim: PracticeClaimsTable) => Promise<void>,
): Promise<Claim> {
  const db = deps.store.db;
  refuseDirectoryAccount(input.accountId);
  const account = await db.selectFrom("accounts").select("id").where("id", "=", input.accountId).executeTakeFirst();
  if (!account) throw new ServiceError("not_found", `no account ${input.accountId}`);
  if (!input.reason.trim()) throw new ServiceError("invalid_body", "give the reason for the override (--reason)");
  const practice = await db.selectFrom("practices").selectAll().where("npi", "=", input.npi).executeTakeFirst();
  const entry = await directoryRow(db, input.npi);
  if (!practice && !entry)
    throw new ServiceError("npi_not_found", `NPI ${input.npi} is neither registered nor in the directory`);
  const domainText = input.domain ?? practice?.domain;
  const domain = ClaimDomainSchema.safeParse(domainText ?? "");
  if (!domain.success) throw new ServiceError("invalid_body", "give the practice's domain (--domain)");
  await ensureDirectoryAccount(deps);
  const at = iso(deps.now());
  const row: PracticeClaimsTable = {
    id: newId("clm"),
    npi: input.npi,
    account_id: input.accountId,
    domain: domain.data,
    token: randomBytes(18).toString("base64url"),
    status: "pending",
    method: null,
    created_at: at,
    proved_at: null,
    last_checked_at: null,
    failing_since: null,
    ended_at: null,
    last_check: null,
    note: input.reason.trim().slice(0, 500),
  };
  await db.transaction().execute(async (trx) => {
    if (!practice)
      await trx
        .insertInto("practices")
        .values({
          npi: input.npi,
          account_id: DIRECTORY_ACCOUNT_ID,
          name: entry?.name ?? `NPI ${input.npi}`,
          domain: domain.data,
          website: `https://${domain.data}/`,
          created_at: at,
          state: entry?.state && /^[A-Z]{2}$/.test(entry.state) ? entry.state : null,
        })
        .execute();
    await trx
      .updateTable("practice_claims")
      .set({ status: "superseded", ended_at: at })
      .where("npi", "=", input.npi)
      .where("status", "in", ["pending", "contested"])
      .execute();
    await trx.insertInto("practice_claims").values(row).execute();
    await becomeOwner(trx, row, "operator", at, null);
    await auditIn?.(trx, row);
  });
  return claimView(
    db,
    await db.selectFrom("practice_claims").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow(),
  );
}

/**
 * The operator ends a claim (`hcs-server claims revoke`): an owner's claim ends its ownership (the practice goes back
 * to the directory account). `auditIn` is written in the same transaction.
 */
export async function revokeClaim(
  deps: ServiceDeps,
  claimId: string,
  reason: string,
  auditIn?: (trx: Transaction<Database>, claim: PracticeClaimsTable) => Promise<void>,
): Promise<Claim> {
  const db = deps.store.db;
  const c = await db.selectFrom("practice_claims").selectAll().where("id", "=", claimId).executeTakeFirst();
  if (!c) throw new ServiceError("not_found", `no claim ${claimId}`);
  if (!["pending", "contested", "proved"].includes(c.status))
    throw new ServiceError("conflict", `claim ${claimId} has already ended (${c.status})`);
  await ensureDirectoryAccount(deps);
  const at = iso(deps.now());
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("practice_claims")
      .set({ status: "revoked", ended_at: at, note: reason.trim().slice(0, 500) || null })
      .where("id", "=", c.id)
      .execute();
    if (c.status === "proved") await moveOwnership(trx, c.npi, DIRECTORY_ACCOUNT_ID, at, { from: c.account_id });
    await auditIn?.(trx, c);
  });
  return claimView(
    db,
    await db.selectFrom("practice_claims").selectAll().where("id", "=", c.id).executeTakeFirstOrThrow(),
  );
}

/** Every claim on a practice (the operator's `claims list --npi`), newest first. */
export async function claimsOnPractice(db: Executor, npi: string): Promise<PracticeClaimsTable[]> {
  return db.selectFrom("practice_claims").selectAll().where("npi", "=", npi).orderBy("created_at", "desc").execute();
}

/** The proved claim the operator's registration of a practice stands for (`addPractice`), written in `trx`. */
export async function recordOperatorRegistration(
  trx: Transaction<Database>,
  p: { npi: string; account_id: string; domain: string; created_at: string },
): Promise<void> {
  await trx
    .insertInto("practice_claims")
    .values({
      id: newId("clm"),
      npi: p.npi,
      account_id: p.account_id,
      domain: p.domain,
      token: randomBytes(18).toString("base64url"),
      status: "proved",
      method: "operator",
      created_at: p.created_at,
      proved_at: p.created_at,
      last_checked_at: p.created_at,
      failing_since: null,
      ended_at: null,
      last_check: null,
      note: "registered by the operator",
    })
    .execute();
}

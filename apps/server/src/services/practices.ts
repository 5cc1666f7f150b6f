import { isIP } from "node:net";
import { NpiSchema } from "@hcs/protocol";
import { z } from "zod";
import { ServiceError } from "../errors.js";
import type { AuditInTransaction } from "./audit.js";
import { recordOperatorRegistration, refuseDirectoryAccount } from "./claims/claims.js";
import { iso, type ServiceDeps } from "./deps.js";

export interface PracticeView {
  readonly npi: string;
  readonly account_id: string;
  readonly name: string;
  readonly domain: string;
  readonly website: string | null;
  readonly created_at: string;
  /** Two-letter US state or territory: breach-portal reports are matched by name within it. */
  readonly state: string | null;
}

const DomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
    "must be a domain name such as clinic.example",
  )
  .refine((d) => isIP(d) === 0, "must be a domain name, not an IP address");

const WebsiteSchema = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).max(2048);

export const NewPracticeSchema = z.strictObject({
  npi: NpiSchema,
  name: z.string().trim().min(1).max(200),
  domain: DomainSchema,
  website: WebsiteSchema.optional(),
  state: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "must be a two-letter state code such as OH")
    .optional(),
  accountId: z.string().min(1),
});

/** Registers a practice (NPI) under an account; `auditIn` is written in the same transaction. */
export async function addPractice(
  deps: ServiceDeps,
  input: z.input<typeof NewPracticeSchema>,
  auditIn?: AuditInTransaction<PracticeView>,
): Promise<PracticeView> {
  const parsed = NewPracticeSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const code = issue.path[0] === "npi" ? "invalid_npi" : "invalid_body";
    throw new ServiceError(code, `${String(issue.path[0] ?? "practice")}: ${issue.message}`);
  }
  const p = parsed.data;
  const account = await deps.store.db
    .selectFrom("accounts")
    .select("id")
    .where("id", "=", p.accountId)
    .executeTakeFirst();
  if (!account) throw new ServiceError("not_found", `no account ${p.accountId}`);
  refuseDirectoryAccount(p.accountId);
  const existing = await deps.store.db
    .selectFrom("practices")
    .select("npi")
    .where("npi", "=", p.npi)
    .executeTakeFirst();
  if (existing) throw new ServiceError("conflict", `practice ${p.npi} is already registered`);
  const row = {
    npi: p.npi,
    account_id: p.accountId,
    name: p.name,
    domain: p.domain,
    website: p.website ?? null,
    created_at: iso(deps.now()),
    state: p.state ?? null,
  };
  await deps.store.db.transaction().execute(async (trx) => {
    await trx.insertInto("practices").values(row).execute();
    // The operator's registration is the owner's proof: a proved claim of method `operator` (docs/onboarding.md).
    await recordOperatorRegistration(trx, row);
    await auditIn?.(trx, row);
  });
  return row;
}

const StateSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "must be a two-letter state code such as OH");

/**
 * Records the practice's state (breach-portal reports are matched by name within it; practices registered before
 * it was asked for have none). `auditIn` is written in the same transaction.
 */
export async function setPracticeState(
  deps: ServiceDeps,
  npi: string,
  state: string,
  auditIn?: AuditInTransaction<PracticeView>,
): Promise<PracticeView> {
  const parsed = StateSchema.safeParse(state);
  if (!parsed.success) throw new ServiceError("invalid_body", `state: ${parsed.error.issues[0]!.message}`);
  const practice = await getPractice(deps, npi);
  const updated = { ...practice, state: parsed.data };
  await deps.store.db.transaction().execute(async (trx) => {
    await trx.updateTable("practices").set({ state: parsed.data }).where("npi", "=", npi).execute();
    await auditIn?.(trx, updated);
  });
  return updated;
}

/** The practice with this NPI, or npi_not_found. */
export async function getPractice(deps: ServiceDeps, npi: string): Promise<PracticeView> {
  const row = await deps.store.db.selectFrom("practices").selectAll().where("npi", "=", npi).executeTakeFirst();
  if (!row) throw new ServiceError("npi_not_found", `no practice with NPI ${npi} is known to this service`);
  return row;
}

/** The practice if it belongs to `accountId`; otherwise forbidden (its existence is not a secret: grades are public ratings). */
export async function getOwnedPractice(deps: ServiceDeps, npi: string, accountId: string): Promise<PracticeView> {
  const practice = await getPractice(deps, npi);
  if (practice.account_id !== accountId)
    throw new ServiceError("forbidden", "this practice belongs to another account");
  return practice;
}

export async function listPractices(deps: ServiceDeps, accountId?: string): Promise<PracticeView[]> {
  let q = deps.store.db.selectFrom("practices").selectAll().orderBy("created_at");
  if (accountId) q = q.where("account_id", "=", accountId);
  return q.execute();
}

import type { Command } from "commander";
import { claimsOnPractice, overrideClaim, recheckClaims, revokeClaim } from "../services/claims/claims.js";
import { proofIOFor } from "../services/claims/proof-io.js";
import type { PracticeClaimsTable } from "../store/directory-schema.js";
import { auditedAs, type CliEnv, configFrom, printResult, withServices } from "./context.js";

type Rows = Record<string, unknown>[];

const row = (c: PracticeClaimsTable) => ({
  claim_id: c.id,
  npi: c.npi,
  account_id: c.account_id,
  domain: c.domain,
  status: c.status,
  method: c.method,
  created_at: c.created_at,
  proved_at: c.proved_at,
  last_checked_at: c.last_checked_at,
  failing_since: c.failing_since,
  note: c.note,
});

/**
 * `claims`: the operator's view of practice claims (docs/onboarding.md) and their decisions — an override that gives
 * a practice to an account by the operator's word (a dispute between two proofs, a practice that cannot publish
 * either proof), a revocation, and a re-check of proofs now. Each change is audited.
 */
export function registerClaimCommands(program: Command, cli: CliEnv): void {
  const json = () => Boolean(program.opts().json);
  const claims = program
    .command("claims")
    .description("Practice claims with proof of control (docs/onboarding.md): list, override, revoke, recheck");
  claims
    .command("list")
    .description("Every claim on a practice, newest first")
    .requiredOption("--npi <npi>", "the practice")
    .action(async (o: { npi: string }) => {
      const rows = await withServices(cli, (deps) => claimsOnPractice(deps.store.db, o.npi));
      printResult(cli, json(), rows.map(row) as Rows);
    });
  claims
    .command("override")
    .description("Give a practice to an account by the operator's word: every other claim on it ends")
    .requiredOption("--npi <npi>", "the practice")
    .requiredOption("--account <account-id>", "the account that owns it from now")
    .option("--domain <domain>", "the practice's domain (default: the one it has)")
    .requiredOption("--reason <text>", "why (kept with the claim and audited)")
    .addHelpText(
      "after",
      '\nExample:\n  hcs-server claims override --npi 1234567893 --account acct_XXXXXXXXXXXXXXXX --reason "NPPES authorized official confirmed by phone"\n',
    )
    .action(async (o: { npi: string; account: string; domain?: string; reason: string }) => {
      const claim = await withServices(cli, (deps) =>
        overrideClaim(
          deps,
          { npi: o.npi, accountId: o.account, reason: o.reason, ...(o.domain ? { domain: o.domain } : {}) },
          auditedAs(cli, deps, "operator.claims.override", (c: PracticeClaimsTable) => ({
            accountId: c.account_id,
            resource: `claim:${c.id}`,
          })),
        ),
      );
      printResult(cli, json(), claim as unknown as Rows[number]);
    });
  claims
    .command("revoke <claim-id>")
    .description("End a claim; an owner's claim ends its ownership (the practice goes back to the directory account)")
    .requiredOption("--reason <text>", "why (kept with the claim and audited)")
    .action(async (claimId: string, o: { reason: string }) => {
      const claim = await withServices(cli, (deps) =>
        revokeClaim(
          deps,
          claimId,
          o.reason,
          auditedAs(cli, deps, "operator.claims.revoke", (c: PracticeClaimsTable) => ({
            accountId: c.account_id,
            resource: `claim:${c.id}`,
          })),
        ),
      );
      printResult(cli, json(), claim as unknown as Rows[number]);
    });
  claims
    .command("recheck")
    .description("Re-check now every proved claim due (last checked over a day ago); lapses are audited")
    .action(async () => {
      const config = configFrom(cli);
      const report = await withServices(cli, (deps) => recheckClaims(deps, proofIOFor(config)));
      printResult(cli, json(), report as unknown as Rows[number]);
    });
}

import type { Command } from "commander";
import { listDeployTokens, revokeDeployToken } from "../services/deploy-tokens.js";
import { listAgents, revokeAgent } from "../services/enrolled-agents.js";
import { OPERATOR } from "../services/enrolment-scope.js";
import type { AgentsTable, DeployTokensTable } from "../store/schema.js";
import { auditedAs, type CliEnv, printResult, withServices } from "./context.js";

type Rows = Record<string, unknown>[];

/** `agents` and `deploy-tokens`: the operator's view of scanner enrolment, and revocation (audited). */
export function registerEnrolmentCommands(program: Command, cli: CliEnv): void {
  const json = () => Boolean(program.opts().json);
  const filterOf = (o: { account?: string; npi?: string }) => ({
    ...(o.account !== undefined ? { accountId: o.account } : {}),
    ...(o.npi !== undefined ? { npi: o.npi } : {}),
  });

  const agents = program
    .command("agents")
    .description("Scanner agents (hcs-scanner installs registered with a deploy token); revocable");
  agents
    .command("list")
    .description("List scanner agents, revoked ones included (no key material)")
    .option("--account <account-id>", "only agents of this account's practices")
    .option("--npi <npi>", "only agents of this practice")
    .addHelpText(
      "after",
      "\nExamples:\n  hcs-server agents list --npi 1234567893\n  hcs-server --json agents list --account acct_XXXXXXXXXXXXXXXX\n",
    )
    .action(async (o: { account?: string; npi?: string }) => {
      const rows = await withServices(cli, (deps) => listAgents(deps, OPERATOR, filterOf(o)));
      printResult(cli, json(), rows as unknown as Rows);
    });
  agents
    .command("revoke <agent-id>")
    .description(
      "Revoke a scanner agent: its uploads are refused (403 agent_revoked) from the next one; enrolling the host again needs a new deploy token",
    )
    .addHelpText("after", "\nExample:\n  hcs-server agents revoke agt_XXXXXXXXXXXXXXXX\n")
    .action(async (agentId: string) => {
      const agent = await withServices(cli, (deps) =>
        revokeAgent(
          deps,
          OPERATOR,
          agentId,
          auditedAs(cli, deps, "operator.agents.revoke", (a: AgentsTable) => ({
            accountId: a.account_id,
            resource: `agent:${a.id}`,
          })),
        ),
      );
      printResult(cli, json(), agent as unknown as Rows[number]);
    });

  const tokens = program
    .command("deploy-tokens")
    .description("Scanner deploy tokens (issued by POST /v1/a2a/network/deploy/{npi}, shown once, stored hashed)");
  tokens
    .command("list")
    .description("List deploy tokens with uses and state (active, revoked, expired, used); never the token itself")
    .option("--account <account-id>", "only tokens of this account's practices")
    .option("--npi <npi>", "only tokens of this practice")
    .addHelpText(
      "after",
      "\nExamples:\n  hcs-server deploy-tokens list --npi 1234567893\n  hcs-server --json deploy-tokens list --account acct_XXXXXXXXXXXXXXXX\n",
    )
    .action(async (o: { account?: string; npi?: string }) => {
      const rows = await withServices(cli, (deps) => listDeployTokens(deps, OPERATOR, filterOf(o)));
      printResult(cli, json(), rows as unknown as Rows);
    });
  tokens
    .command("revoke <token-id>")
    .description(
      "Revoke a deploy token: registrations with it are refused (401 deploy_token_revoked); agents it enrolled keep working",
    )
    .addHelpText("after", "\nExample:\n  hcs-server deploy-tokens revoke dpt_XXXXXXXXXXXXXXXX\n")
    .action(async (tokenId: string) => {
      const token = await withServices(cli, (deps) =>
        revokeDeployToken(
          deps,
          OPERATOR,
          tokenId,
          auditedAs(cli, deps, "operator.deploy-tokens.revoke", (t: DeployTokensTable) => ({
            accountId: t.account_id,
            resource: `deploy_token:${t.id}`,
          })),
        ),
      );
      printResult(cli, json(), token as unknown as Rows[number]);
    });
}

import { type Command, Option } from "commander";
import { type PortalRole, PortalRoleSchema } from "../portal/roles.js";
import { invitationLink, inviteUser, listUsers } from "../portal/users.js";
import { auditedAs, type CliEnv, configFrom, printResult, withServices } from "./context.js";

/** `users`: the customer portal's people (docs/portal.md). Inviting is audited as operator.users.invite. */
export function registerUserCommands(program: Command, cli: CliEnv): void {
  const json = () => Boolean(program.opts().json);
  const users = program.command("users").description("People who sign in to the customer portal at /portal");
  users
    .command("invite")
    .description("Invite a person into an account's portal; prints a one-time link (valid 72 hours)")
    .requiredOption("--account <account-id>", "the account they belong to")
    .requiredOption("--email <email>", "their email address (their sign-in name)")
    .addOption(new Option("--role <role>", "what they may do").choices(PortalRoleSchema.options).default("owner"))
    .addHelpText(
      "after",
      "\nExample:\n  hcs-server users invite --account acct_XXXXXXXXXXXXXXXX --email manager@sunrise-clinic.example\n\nThe link is shown once; send it to the person by a channel you trust. Owners and managers enrol an\nauthenticator app (TOTP) before they can use the portal.\n",
    )
    .action(async (o: { account: string; email: string; role: PortalRole }) => {
      const publicUrl = configFrom(cli).publicUrl;
      const invitation = await withServices(cli, (deps) =>
        inviteUser(
          deps,
          { accountId: o.account, email: o.email, role: o.role, invitedBy: null },
          auditedAs(cli, deps, "operator.users.invite", (userId: string) => ({
            accountId: o.account,
            resource: `user:${userId}`,
          })),
        ),
      );
      printResult(cli, json(), {
        user_id: invitation.userId,
        email: invitation.email,
        role: o.role,
        expires_at: invitation.expiresAt,
        link: invitationLink(publicUrl, invitation.token),
      });
    });
  users
    .command("list")
    .description("List an account's portal users (no secrets)")
    .requiredOption("--account <account-id>", "account")
    .action(async (o: { account: string }) => {
      const rows = await withServices(cli, (deps) => listUsers(deps, o.account));
      printResult(
        cli,
        json(),
        rows.map((u) => ({
          user_id: u.id,
          email: u.email,
          role: u.role,
          mfa_enrolled: u.mfaEnrolled,
          active: u.active,
          created_at: u.createdAt,
        })),
      );
    });
}

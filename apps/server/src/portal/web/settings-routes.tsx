import { z } from "zod";
import type { AppDeps } from "../../app-deps.js";
import { createApiKeyOperation, revokeApiKeyOperation } from "../../catalogue/accounts/api-keys.js";
import type { Routes } from "../../http/route-template.js";
import { accountOverview } from "../../services/account-overview.js";
import { getAccount, rotateWebhookSecret, webhookSecretIsSet } from "../../services/accounts.js";
import { listApiKeys } from "../../services/api-keys.js";
import type { Caller } from "../../services/caller.js";
import { creditLedger } from "../../services/credit-ledger.js";
import { PortalError } from "../portal-errors.js";
import { can, PortalRoleSchema, rolesInvitableBy } from "../roles.js";
import { invitationLink, inviteUser, listUsers } from "../users.js";
import { ApiAccessPage } from "../views/api-access.js";
import { PeoplePage } from "../views/people.js";
import { readForm } from "./forms.js";
import { invokeForPortal, outputOrThrow } from "./portal-operations.js";
import { assertCan, auditOf, requireSignedIn, type SignedIn, viewerOf } from "./portal-request.js";
import { seeOther, sendPage } from "./responses.js";

/**
 * Settings: API access (plan, credits, rate limits, usage per period — what `GET /v1/a2a/account` answers — keys,
 * the webhook secret and the ledger) and People (invitations with a role).
 */
export function mountSettingsRoutes(router: Routes, deps: AppDeps): void {
  const apiPage = async (
    signedIn: SignedIn,
    newKey: { id: string; apiKey: string } | null,
    notice?: string,
    newWebhookSecret: string | null = null,
  ) => {
    const { user } = signedIn.session;
    const accountId = user.accountId;
    const account = await getAccount(deps, accountId);
    // The person, as the portal's bridge calls operations for them: their rate limits count per person.
    const caller: Caller = { keyId: null, portalUserId: user.id, accountId, plan: account.plan, tier: account.tier };
    const [overview, keys, ledger, viewer, webhookSecretSet] = await Promise.all([
      accountOverview(deps, caller, deps.config.contactEmail),
      listApiKeys(deps, accountId),
      creditLedger(deps, accountId),
      viewerOf(deps, signedIn),
      webhookSecretIsSet(deps, accountId),
    ]);
    return (
      <ApiAccessPage
        viewer={viewer}
        overview={overview}
        keys={keys}
        ledger={ledger}
        canManage={can(signedIn.session.user.role, "manage_api_keys")}
        newKey={newKey}
        webhook={{
          set: webhookSecretSet,
          canRotate: can(signedIn.session.user.role, "rotate_webhook_secret"),
          newSecret: newWebhookSecret,
        }}
        {...(notice ? { notice } : {})}
      />
    );
  };

  router.get("/portal/settings/api", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const notice = ctx.query.revoked === "1" ? "The key was revoked, with the deploy tokens it created." : undefined;
    sendPage(ctx, await apiPage(signedIn, null, notice));
  });

  router.post("/portal/settings/api/keys", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const form = await readForm(ctx, signedIn.cookie, z.object({ label: z.string().trim().max(100).default("") }));
    // invokeForPortal checks the role's manage_api_keys permission.
    const created = outputOrThrow(
      ctx,
      await invokeForPortal(ctx, deps, signedIn, createApiKeyOperation, { label: form.label }, "manage_api_keys"),
    ) as { key_id: string; api_key: string };
    sendPage(ctx, await apiPage(signedIn, { id: created.key_id, apiKey: created.api_key }), 201);
  });

  router.post("/portal/settings/api/keys/:key/revoke", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    await readForm(ctx, signedIn.cookie, z.object({}));
    assertCan(signedIn, "manage_api_keys");
    const keys = await listApiKeys(deps, signedIn.session.user.accountId);
    const key = keys.find((k) => k.id === ctx.params.key);
    if (!key) throw new PortalError("not_found", "There is no such key in your account.");
    outputOrThrow(
      ctx,
      await invokeForPortal(ctx, deps, signedIn, revokeApiKeyOperation, { key_id: key.id }, "manage_api_keys"),
    );
    seeOther(ctx, "/portal/settings/api?revoked=1");
  });

  router.post("/portal/settings/api/webhook-secret", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    await readForm(ctx, signedIn.cookie, z.object({}));
    assertCan(signedIn, "rotate_webhook_secret");
    const secret = await rotateWebhookSecret(
      deps,
      signedIn.session.user.accountId,
      auditOf(ctx, deps, signedIn.actor, "portal.webhook-secret.rotate", (accountId: string) => `account:${accountId}`),
    );
    // Shown once, in this answer only: the page is no-store and the secret is never logged or audited.
    sendPage(ctx, await apiPage(signedIn, null, undefined, secret), 201);
  });

  const peoplePage = async (signedIn: SignedIn, inviteLink: string | null, error?: string) => (
    <PeoplePage
      viewer={await viewerOf(deps, signedIn)}
      users={await listUsers(deps, signedIn.session.user.accountId)}
      invitableRoles={rolesInvitableBy(signedIn.session.user.role)}
      inviteLink={inviteLink}
      {...(error ? { error } : {})}
    />
  );

  router.get("/portal/settings/people", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    sendPage(ctx, await peoplePage(signedIn, null));
  });

  router.post("/portal/settings/people", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const form = await readForm(
      ctx,
      signedIn.cookie,
      z.object({ email: z.string().trim().min(1, "Enter an email.").max(254), role: PortalRoleSchema }),
    );
    assertCan(signedIn, "invite_users");
    if (!rolesInvitableBy(signedIn.session.user.role).includes(form.role))
      throw new PortalError("forbidden", "You cannot give a role above your own.");
    try {
      const invitation = await inviteUser(
        deps,
        {
          accountId: signedIn.session.user.accountId,
          email: form.email,
          role: form.role,
          invitedBy: signedIn.session.user.id,
        },
        auditOf(ctx, deps, signedIn.actor, "portal.users.invite", (id: string) => `user:${id}`),
      );
      sendPage(ctx, await peoplePage(signedIn, invitationLink(deps.config.publicUrl, invitation.token)), 201);
    } catch (err) {
      if (!(err instanceof PortalError) || (err.code !== "invalid_input" && err.code !== "user_exists")) throw err;
      sendPage(ctx, await peoplePage(signedIn, null, err.message), 400);
    }
  });
}

import { expect } from "vitest";
import { totpCodeAt } from "../portal/totp.js";
import { inviteUser } from "../portal/users.js";
import { PortalClient } from "./portal-client.js";
import type { TestServer } from "./test-server.js";

export const PORTAL_TEST_PASSWORD = "a long clinic passphrase 42";

/** Signs a new invitee in through the pages: accept (password), enrol TOTP when the role needs it. */
export async function invitedAndSignedIn(
  t: TestServer,
  accountId: string,
  email: string,
  role: "owner" | "manager" | "viewer",
) {
  const invitation = await inviteUser(t.server.deps, { accountId, email, role, invitedBy: null });
  const browser = new PortalClient(t);
  expect((await browser.get(`/portal/invite?token=${invitation.token}`)).status).toBe(200);
  const accepted = await browser.post("/portal/invite", {
    token: invitation.token,
    password: PORTAL_TEST_PASSWORD,
    confirm: PORTAL_TEST_PASSWORD,
  });
  expect(accepted.status).toBe(303);
  let secret: string | null = null;
  if (role !== "viewer") {
    expect(accepted.headers.location).toBe("/portal/mfa/enrol");
    const enrol = await browser.get("/portal/mfa/enrol");
    secret = /<code class="secret">([A-Z2-7]+)<\/code>/.exec(enrol.text)![1]!;
    const done = await browser.post("/portal/mfa/enrol", { code: totpCodeAt(secret, new Date()) });
    expect(done.status).toBe(200);
    expect(done.text).toContain("Save your recovery codes");
  }
  return { browser, secret };
}

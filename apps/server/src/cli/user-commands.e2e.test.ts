import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { openInvitation } from "../portal/users.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import { openMigratedStore } from "../server.js";
import type { ServiceDeps } from "../services/deps.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";

const dataDir = mkdtempSync(join(tmpdir(), "hcs-cli-users-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const PUBLIC_URL = "https://hcs.example.test";
const hcs = (...args: string[]) => runHcsServer(dataDir, args, { HCS_PUBLIC_URL: PUBLIC_URL });

async function withStore<T>(fn: (deps: ServiceDeps) => Promise<T>): Promise<T> {
  const store = await openMigratedStore(loadConfig({ HCS_DATA_DIR: dataDir }, process.cwd()));
  try {
    return await fn({ store, now: () => new Date(), secrets: createSecretBox(loadMasterKey(dataDir, null)) });
  } finally {
    await store.close();
  }
}

describe("hcs-server users", () => {
  let accountId = "";
  beforeAll(async () => {
    accountId = await withStore(async (deps) => (await accountWithKey(deps, { plan: "professional" })).accountId);
  });

  it("invite prints a one-time link to the portal, stores only its hash, and is audited", async () => {
    const r = await hcs("--json", "users", "invite", "--account", accountId, "--email", "Owner@Clinic.example");
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ email: "owner@clinic.example", role: "owner" });
    const url = new URL(out.link);
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/portal/invite`);
    const token = url.searchParams.get("token")!;
    await withStore(async (deps) => {
      expect((await openInvitation(deps, token))?.user.email).toBe("owner@clinic.example");
      const stored = await deps.store.db.selectFrom("portal_invites").select("token_hash").execute();
      expect(stored.map((s) => s.token_hash)).not.toContain(token);
      const events = await deps.store.db
        .selectFrom("audit_events")
        .selectAll()
        .where("action", "=", "operator.users.invite")
        .execute();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        transport: "cli",
        actor_account_id: accountId,
        resource: `user:${out.user_id}`,
      });
    });
    const list = await hcs("--json", "users", "list", "--account", accountId);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ email: "owner@clinic.example", role: "owner", active: false, mfa_enrolled: false }),
    ]);
  });

  it("refuses an unknown account, a bad email and a bad role, leaving no event", async () => {
    const unknown = await hcs("users", "invite", "--account", "acct_nope", "--email", "a@b.example");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("not_found");
    const badEmail = await hcs("users", "invite", "--account", accountId, "--email", "not-an-email");
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toContain("error (invalid_input): Enter an email address");
    const badRole = await hcs("users", "invite", "--account", accountId, "--email", "x@b.example", "--role", "admin");
    expect(badRole.code).toBe(2);
    const events = await withStore((deps) =>
      deps.store.db.selectFrom("audit_events").select("id").where("action", "=", "operator.users.invite").execute(),
    );
    expect(events).toHaveLength(1);
  });
});

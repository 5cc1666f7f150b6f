import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { createSecretBox, loadMasterKey } from "../secrets/master-key.js";
import { openMigratedStore } from "../server.js";
import type { ServiceDeps } from "../services/deps.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { runHcsServer } from "../test-support/hcs-server-cli.js";
import { importDirectoryRecordFor } from "../test-support/nppes-files.js";

const NPI = "1568946812";

/** The real `hcs-server claims …` commands: the operator's override, the list, a revocation, all audited. */
describe("hcs-server claims", () => {
  const dir = mkdtempSync(join(tmpdir(), "hcs-claims-cli-"));
  const dataDir = join(dir, "data");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const hcs = (...args: string[]) => runHcsServer(dataDir, args);
  async function withStore<T>(fn: (deps: ServiceDeps) => Promise<T>): Promise<T> {
    const config = loadConfig({ HCS_DATA_DIR: dataDir }, process.cwd());
    const store = await openMigratedStore(config);
    try {
      const secrets = createSecretBox(loadMasterKey(config.dataDir, config.masterKeyHex));
      return await fn({ store, secrets, now: () => new Date() });
    } finally {
      await store.close();
    }
  }

  it("override gives a directory practice to an account; list shows it; revoke returns it to the directory", async () => {
    // A first command creates the data dir and its master key.
    expect((await hcs("claims", "list", "--npi", NPI)).code).toBe(0);
    const accountId = await withStore(async (deps) => {
      await importDirectoryRecordFor(deps, { npi: NPI, name: "CSP ANESTHESIA LLC", state: "GA", domain: "csp.test" });
      return (await accountWithKey(deps)).accountId;
    });
    const missingReason = await hcs("claims", "override", "--npi", NPI, "--account", accountId);
    expect(missingReason.code).not.toBe(0);
    const o = await hcs(
      "--json",
      "claims",
      "override",
      "--npi",
      NPI,
      "--account",
      accountId,
      "--domain",
      "csp.test",
      "--reason",
      "official confirmed",
    );
    expect(o.code, o.stderr).toBe(0);
    const claim = JSON.parse(o.stdout);
    expect(claim).toMatchObject({ status: "proved", method: "operator", owner: true, domain: "csp.test" });
    const list = JSON.parse((await hcs("--json", "claims", "list", "--npi", NPI)).stdout);
    expect(list).toEqual([
      expect.objectContaining({ claim_id: claim.claim_id, account_id: accountId, note: "official confirmed" }),
    ]);
    const r = await hcs("--json", "claims", "revoke", claim.claim_id, "--reason", "sold the practice");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "revoked", owner: false });
    const [owner, events] = await withStore(async (deps) => [
      await deps.store.db.selectFrom("practices").select("account_id").where("npi", "=", NPI).executeTakeFirstOrThrow(),
      await deps.store.db
        .selectFrom("audit_events")
        .select(["action", "resource", "actor_account_id", "transport"])
        .where("action", "like", "operator.claims.%")
        .orderBy("id")
        .execute(),
    ]);
    expect(owner.account_id).toBe("acct_directory");
    expect(events).toEqual([
      {
        action: "operator.claims.override",
        resource: `claim:${claim.claim_id}`,
        actor_account_id: accountId,
        transport: "cli",
      },
      {
        action: "operator.claims.revoke",
        resource: `claim:${claim.claim_id}`,
        actor_account_id: accountId,
        transport: "cli",
      },
    ]);
    const keys = await hcs("keys", "create", "--account", "acct_directory");
    expect(keys.code).not.toBe(0);
    expect(keys.stderr).toMatch(/cannot be given access/);
  }, 120_000);
});
